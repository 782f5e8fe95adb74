import TrellisCanvas
import TrellisWire

/// Text of several lines, wrapped between words by display width, scrolled to keep the
/// cursor in view, editable or read-only (UIKit's `UITextView`, Textual's `TextArea`).
///
/// Edited by grapheme cluster, as `TextField` is (`TextBuffer`). Keys, when focused:
/// text and a paste insert (a paste whole, as one edit, its line breaks kept); Enter
/// breaks the line; Backspace and Delete, by word with Alt or Ctrl (Ctrl-W, Alt-D);
/// Ctrl-U and Ctrl-K to the start and end of the line; ← → by character or word; ↑ ↓ by
/// line on screen, keeping the column; Home/End and Ctrl-A/Ctrl-E to the start and end of
/// the line on screen; Page Up/Down by a screen less one line; Shift extends the
/// selection. Read-only, it takes only the moves, which scroll it, and shows no cursor.
/// Other keys (Tab, Esc, other Ctrl keys) go on up the responder chain.
open class TextView: Control {
    public private(set) var buffer = TextBuffer()
    public var cursor: Int { buffer.cursor }
    /// The first line on screen.
    public private(set) var firstLine = 0
    /// False: the text can be read, moved through and scrolled, not changed.
    public var isEditable = true { didSet { setNeedsDisplay() } }
    /// False: no scroll indicator; the text wraps at the whole width.
    public var showsVerticalScrollIndicator = true { didSet { setNeedsDisplay() } }

    /// Setting it puts the cursor at the end and sends no `.editingChanged`, as in UIKit.
    public var text: String {
        get { buffer.text }
        set {
            buffer.text = newValue
            setNeedsDisplay()
        }
    }

    public var selectedRange: Range<Int> { buffer.selectedRange }
    public var selectedText: String { buffer.selectedText }

    public required init(frame: Rect = .zero) { super.init(frame: frame) }

    open override var canBecomeFocused: Bool { isEnabled }

    public func moveCursor(to position: Int, selecting: Bool = false) {
        buffer.moveCursor(to: position, selecting: selecting)
        setNeedsDisplay()
    }

    /// Replaces the selection (or inserts at the cursor) with `string`, as one edit.
    public func insert(_ string: String) {
        guard isEditable else { return }
        edited(buffer.insert(Self.normalized(string)))
    }

    private func delete(to position: Int) {
        edited(buffer.delete(to: position))
    }

    private func edited(_ changed: Bool) {
        guard changed else { return }
        setNeedsDisplay()
        sendActions(for: .editingChanged)
    }

    /// Line breaks as `\n`; a tab as four spaces (a cell cannot hold one); other control
    /// characters dropped.
    private static func normalized(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\r\n", "\r", "\n": out.append("\n")
            case "\t": out.append("    ")
            default:
                if !c.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) { out.append(c) }
            }
        }
        return out
    }

    // MARK: Lines on screen

    private var textArea: Rect { border == .none ? bounds : bounds.inset(by: EdgeInsets(all: 1)) }

    private static func width(of c: Character) -> Int { CharacterWidth.columns(of: String(c)) }

    /// The columns the text wraps at: the text area, less the scroll indicator's column
    /// while the text is taller than the area. (Wrapping one column narrower only adds
    /// lines, so text that overflowed still does.)
    var wrapWidth: Int {
        let area = textArea
        guard showsVerticalScrollIndicator, area.width > 1, lines(width: area.width).count > area.height else { return area.width }
        return area.width - 1
    }

    /// The characters of each line on screen at `width` columns: a line ends at a `\\n`
    /// (which no line includes) or wraps after the last space that fits, a word wider than
    /// the line breaking between characters. The space a line wraps at stays on it.
    func lines(width: Int) -> [Range<Int>] {
        let chars = buffer.characters
        var lines: [Range<Int>] = []
        var start = 0
        while true {
            let end = chars[start...].firstIndex(of: "\n") ?? chars.count
            var s = start
            repeat {
                var e = s
                var used = 0
                var lastBreak: Int?
                while e < end {
                    let w = Self.width(of: chars[e])
                    if used + w > max(1, width), e > s { break }
                    used += w
                    e += 1
                    if chars[e - 1] == " " { lastBreak = e }
                }
                if e < end {
                    if chars[e] == " " {
                        e += 1
                    } else if let b = lastBreak, b > s {
                        e = b
                    }
                }
                lines.append(s..<e)
                s = e
            } while s < end
            guard end < chars.count else { break }
            start = end + 1
        }
        return lines
    }

    /// The line on screen and the column the cursor (or any `position`) is drawn at. At a
    /// wrap, the position belongs to the line that starts there.
    func place(of position: Int, in lines: [Range<Int>]) -> (line: Int, column: Int) {
        // The last line starting at or before it: a wrapped line's end is where the next
        // one starts; a `\n` ends a line one position before the next one starts.
        let line = lines.lastIndex { $0.lowerBound <= position } ?? 0
        let r = lines[line]
        let column = buffer.characters[r.lowerBound..<min(max(position, r.lowerBound), r.upperBound)].reduce(0) { $0 + Self.width(of: $1) }
        return (line, column)
    }

    /// The position in `line` nearest `column` without passing it; at most the line's
    /// end, or the character before a wrap (whose position belongs to the next line).
    func position(line: Int, column: Int, in lines: [Range<Int>]) -> Int {
        let r = lines[max(0, min(line, lines.count - 1))]
        let wrapped = line < lines.count - 1 && lines[line + 1].lowerBound == r.upperBound
        let last = wrapped ? max(r.lowerBound, r.upperBound - 1) : r.upperBound
        var used = 0
        var i = r.lowerBound
        while i < last {
            let w = Self.width(of: buffer.characters[i])
            if used + w > column { break }
            used += w
            i += 1
        }
        return i
    }

    // MARK: Keys

    open override func pressesBegan(_ presses: Set<Press>) {
        guard isEnabled, let press = presses.first, handle(press.key) else { return super.pressesBegan(presses) }
    }

    private func handle(_ key: Key) -> Bool {
        let m = key.modifiers
        let byWord = !m.isDisjoint(with: [.alt, .control])
        let selecting = m.contains(.shift)
        let width = wrapWidth
        let lines = lines(width: width)
        let here = place(of: cursor, in: lines)
        let lineStart = position(line: here.line, column: 0, in: lines)
        let lineEnd = position(line: here.line, column: .max, in: lines)
        if isEditable {
            if key.isPaste || key.isText {
                insert(key.text)
                return true
            }
            switch (key.special, key.text, m.subtracting(.shift)) {
            case (.enter, _, []): insert("\n"); return true
            case (.backspace, _, _): delete(to: byWord ? buffer.wordStart(before: cursor) : cursor - 1); return true
            case (.delete, _, _): delete(to: byWord ? buffer.wordEnd(after: cursor) : cursor + 1); return true
            case (.none, "w", .control): delete(to: buffer.wordStart(before: cursor)); return true
            case (.none, "d", .alt): delete(to: buffer.wordEnd(after: cursor)); return true
            case (.none, "u", .control): delete(to: lineStart); return true
            case (.none, "k", .control): delete(to: lineEnd); return true
            default: break
            }
        }
        let page = max(1, textArea.height - 1)
        func vertical(_ lines: Int) -> Int { position(line: here.line + lines, column: here.column, in: self.lines(width: width)) }
        let target: Int
        switch (key.special, key.text, m.subtracting(.shift)) {
        case (.left, _, _): target = byWord ? buffer.wordStart(before: cursor) : cursor - 1
        case (.right, _, _): target = byWord ? buffer.wordEnd(after: cursor) : cursor + 1
        case (.up, _, []): target = here.line == 0 ? 0 : vertical(-1)
        case (.down, _, []): target = here.line == lines.count - 1 ? buffer.count : vertical(1)
        case (.pageUp, _, []): target = vertical(-page)
        case (.pageDown, _, []): target = vertical(page)
        case (.home, _, []), (.none, "a", .control): target = lineStart
        case (.end, _, []), (.none, "e", .control): target = lineEnd
        case (.home, _, .control): target = 0
        case (.end, _, .control): target = buffer.count
        default: return false
        }
        moveCursor(to: target, selecting: selecting)
        return true
    }

    // MARK: Drawing

    /// Scrolls so the cursor's line is on screen.
    func scrollToCursor(lines: [Range<Int>], height: Int) {
        guard height > 0 else { return }
        let line = place(of: cursor, in: lines).line
        firstLine = min(max(0, min(firstLine, lines.count - 1)), line)
        if line >= firstLine + height { firstLine = line - height + 1 }
    }

    open override func draw(in surface: inout Surface) {
        super.draw(in: &surface)
        let area = textArea
        guard !area.isEmpty else { return }
        let width = wrapWidth
        let lines = lines(width: width)
        scrollToCursor(lines: lines, height: area.height)
        var base = Style(foreground: foregroundColor, background: backgroundColor ?? .default)
        if !isEnabled { base.attributes.insert(.dim) }
        var marked = base
        marked.attributes.insert(.reverse)
        let showsCursor = isFocused && isEditable
        let selection = selectedRange
        let chars = buffer.characters
        let cursorLine = place(of: cursor, in: lines).line
        surface.withState(origin: surface.origin, clip: surface.clip.intersection(area.offsetBy(dx: surface.origin.x, dy: surface.origin.y))) { s in
            for (row, r) in lines[firstLine...].prefix(area.height).enumerated() {
                let y = area.minY + row
                var x = area.minX
                for i in r {
                    let atCursor = showsCursor && i == cursor
                    x += s.put(String(chars[i]), at: Point(x: x, y: y), style: atCursor || selection.contains(i) ? marked : base)
                }
                // The cursor after the line's last character: a reversed blank cell.
                if showsCursor, cursorLine == firstLine + row, cursor == r.upperBound {
                    s.put(" ", at: Point(x: x, y: y), style: marked)
                }
            }
        }
        if width < area.width {
            ScrollIndicator.draw(
                in: &surface, x: area.maxX - 1, rows: area.minY..<area.maxY, visible: area.height, total: lines.count, offset: firstLine,
                base: Style(foreground: foregroundColor, background: backgroundColor ?? .default))
        }
    }
}
