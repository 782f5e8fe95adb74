/// Text being edited: grapheme clusters — what a person sees as one character — with a
/// cursor between them and a selection. What `TextField` and `TextView` share; drawing
/// and keys are theirs.
public struct TextBuffer: Equatable, Sendable {
    /// Index i is the i-th character a person sees.
    public private(set) var characters: [Character] = []
    /// A position between characters, 0…count.
    public private(set) var cursor = 0
    /// The other end of the selection while one is being made.
    private var anchor: Int?

    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    /// Setting it puts the cursor at the end, with nothing selected.
    public var text: String {
        get { String(characters) }
        set { self = TextBuffer(newValue) }
    }

    public var count: Int { characters.count }

    /// The selected characters; empty (at the cursor) when nothing is selected.
    public var selectedRange: Range<Int> {
        guard let anchor else { return cursor..<cursor }
        return min(anchor, cursor)..<max(anchor, cursor)
    }

    public var selectedText: String { String(characters[selectedRange]) }

    /// Moves the cursor to `position` (clamped), extending the selection when `selecting`.
    public mutating func moveCursor(to position: Int, selecting: Bool = false) {
        let target = min(max(0, position), characters.count)
        if selecting {
            if anchor == nil { anchor = cursor }
        } else {
            anchor = nil
        }
        cursor = target
        if anchor == cursor { anchor = nil }
    }

    /// Selects `range` (clamped), the cursor at its end.
    public mutating func select(_ range: Range<Int>) {
        let lower = min(max(0, range.lowerBound), characters.count)
        let upper = min(max(lower, range.upperBound), characters.count)
        anchor = lower == upper ? nil : lower
        cursor = upper
    }

    /// Replaces `range` with `string` and puts the cursor after it; false if nothing
    /// changed. The edit is re-segmented with one character of context each side, so a
    /// combining mark at an edge joins the character before it — without re-segmenting
    /// the whole text, which would make every key in a buffer holding a huge paste cost
    /// its whole length.
    @discardableResult
    public mutating func replace(_ range: Range<Int>, with string: String) -> Bool {
        let range = range.clamped(to: 0..<characters.count)
        guard !range.isEmpty || !string.isEmpty else { return false }
        let lower = max(0, range.lowerBound - 1)
        let upper = min(characters.count, range.upperBound + 1)
        let head = String(characters[lower..<range.lowerBound]) + string
        let joined = Array(head + String(characters[range.upperBound..<upper]))
        characters.replaceSubrange(lower..<upper, with: joined)
        // After what `string` became: the context before it and the text, segmented together.
        cursor = min(lower + Array(head).count, characters.count)
        anchor = nil
        return true
    }

    /// Replaces the selection (or inserts at the cursor); false if nothing changed.
    @discardableResult
    public mutating func insert(_ string: String) -> Bool { replace(selectedRange, with: string) }

    /// Deletes the selection if there is one, else from the cursor to `position`.
    @discardableResult
    public mutating func delete(to position: Int) -> Bool {
        replace(selectedRange.isEmpty ? min(cursor, position)..<max(cursor, position) : selectedRange, with: "")
    }

    /// The start of the word before `position`: back over non-word characters, then over
    /// word characters (letters, digits, `_`; a run of kana or kanji is one word).
    public func wordStart(before position: Int) -> Int {
        var i = min(position, characters.count)
        while i > 0, !Self.isWord(characters[i - 1]) { i -= 1 }
        while i > 0, Self.isWord(characters[i - 1]) { i -= 1 }
        return i
    }

    /// The end of the word after `position`, as readline's forward-word.
    public func wordEnd(after position: Int) -> Int {
        var i = max(0, position)
        while i < characters.count, !Self.isWord(characters[i]) { i += 1 }
        while i < characters.count, Self.isWord(characters[i]) { i += 1 }
        return i
    }

    private static func isWord(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
}
