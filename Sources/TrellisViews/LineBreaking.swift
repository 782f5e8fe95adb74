import TrellisCanvas

/// How text that does not fit its width is broken into lines and cut (UIKit's
/// `NSLineBreakMode`, in terminal columns).
public enum LineBreakMode: String, Sendable, CaseIterable {
    /// Lines break between words; a word wider than the line breaks between characters.
    case byWordWrapping
    /// Lines break between any two characters.
    case byCharWrapping
    /// What does not fit is cut, at a character boundary.
    case byClipping
    /// What does not fit is replaced by `…` at the end of the last line.
    case byTruncatingTail
}

/// Breaks text into lines no wider than a number of columns, measured as the terminal
/// draws them (`CharacterWidth`): a wide character is never split, nor a letter from
/// its combining marks, since lines are made of whole grapheme clusters.
public enum LineBreaking {
    /// The lines `text` takes in `width` columns, at most `maxLines` of them (0: no
    /// limit). A newline in the text always breaks the line. Words wrap for every mode
    /// but `.byCharWrapping`; when lines are left over, the last one shown ends in `…`
    /// with `.byTruncatingTail` and is cut otherwise.
    public static func lines(of text: String, width: Int, mode: LineBreakMode, maxLines: Int = 0) -> [String] {
        guard width > 0 else { return [] }
        var out: [String] = []
        // One line more than shown, to know whether the text goes on.
        paragraphs: for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            for line in wrap(Array(paragraph), width: width, byWord: mode != .byCharWrapping) {
                out.append(line)
                if maxLines > 0, out.count > maxLines { break paragraphs }
            }
        }
        guard maxLines > 0, out.count > maxLines else { return out }
        let next = out.removeLast()
        if mode == .byTruncatingTail, let last = out.popLast() {
            // As much of the text from the last line's start as fits, then the ellipsis.
            out.append(truncatingTail(last + " " + next, width: width, force: true))
        }
        return out
    }

    /// `line` cut to `width` columns, ending in `…` when anything was cut (or, with
    /// `force`, always — the last line of a text that goes on).
    public static func truncatingTail(_ line: String, width: Int, force: Bool = false) -> String {
        guard width > 0 else { return "" }
        if !force, columns(of: line) <= width { return line }
        var kept = ""
        var used = 0
        for c in line {
            let w = columns(of: c)
            if used + w > width - 1 { break }
            kept.append(c)
            used += w
        }
        while kept.last == " " { kept.removeLast() }
        return kept + "…"
    }

    private static func wrap(_ characters: [Character], width: Int, byWord: Bool) -> [String] {
        var lines: [String] = []
        var start = 0
        while start < characters.count {
            // Spaces a line wrapped at do not begin the next one.
            if !lines.isEmpty { while start < characters.count, characters[start] == " " { start += 1 } }
            if start == characters.count { break }
            var end = start
            var used = 0
            var lastBreak: Int?
            while end < characters.count {
                let w = columns(of: characters[end])
                if used + w > width { break }
                used += w
                end += 1
                if characters[end - 1] == " " { lastBreak = end }
            }
            if end < characters.count, byWord, let b = lastBreak, b > start, characters[end] != " " {
                end = b
            }
            // A character wider than the whole line still takes a line of its own.
            if end == start { end += 1 }
            var line = String(characters[start..<end])
            while line.last == " " { line.removeLast() }
            lines.append(line)
            start = end
        }
        return lines.isEmpty ? [""] : lines
    }

    private static func columns(of c: Character) -> Int { CharacterWidth.columns(of: String(c)) }
    private static func columns(of s: String) -> Int { CharacterWidth.columns(of: s) }
}
