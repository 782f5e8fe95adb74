import TrellisCanvas
import TrellisWire

/// One line of editable text (UIKit's `UITextField`, Textual's `Input`).
///
/// The text is edited by grapheme cluster — what a person sees as one character — so a
/// wide character (two cells) or a letter with combining marks is inserted, deleted,
/// selected and scrolled whole: the cursor never stands inside one. A combining mark
/// typed after a letter joins that letter, as it does on screen.
///
/// Keys, when focused: text inserts (replacing the selection); a paste inserts all its
/// text as one edit, line breaks as spaces; Backspace and Delete remove a character, or a
/// word with Alt or Ctrl (Ctrl-W, Alt-D too), Ctrl-U and Ctrl-K to the start and end;
/// ← → move by character, by word with Alt or Ctrl; Home/End and Ctrl-A/Ctrl-E; Shift
/// with any move extends the selection. Enter sends `.primaryActionTriggered`; every
/// edit sends `.editingChanged`. Other keys (Tab, Esc, ↑ ↓, other Ctrl keys) go on up the
/// responder chain, so Tab still moves focus and a controller's commands still work.
open class TextField: Control {
    /// The text, the cursor and the selection.
    public private(set) var buffer = TextBuffer()
    /// A position between characters, 0…count.
    public var cursor: Int { buffer.cursor }
    /// The first character shown: the field scrolls sideways to keep the cursor in view.
    public private(set) var firstVisible = 0
    private var characters: [Character] { buffer.characters }

    /// Setting it puts the cursor at the end and sends no `.editingChanged`, as in UIKit.
    public var text: String {
        get { buffer.text }
        set {
            buffer.text = newValue
            invalidateIntrinsicContentSize()
            setNeedsDisplay()
        }
    }

    /// Shown, dimmed, while the text is empty.
    public var placeholder = "" { didSet { setNeedsDisplay() } }
    /// Shows each character as `•`; word moves and deletions treat the text as one word,
    /// so they reveal nothing of its structure.
    public var isSecureTextEntry = false { didSet { setNeedsDisplay() } }

    /// The selected characters; empty (at the cursor) when nothing is selected.
    public var selectedRange: Range<Int> { buffer.selectedRange }
    public var selectedText: String { buffer.selectedText }

    public required init(frame: Rect = .zero) { super.init(frame: frame) }

    public convenience init(placeholder: String, frame: Rect = .zero) {
        self.init(frame: frame)
        self.placeholder = placeholder
    }

    open override var canBecomeFocused: Bool { isEnabled }

    /// Editing begins and ends with focus, as in UIKit.
    open override func focusDidChange() {
        sendActions(for: isFocused ? .editingDidBegin : .editingDidEnd)
    }

    /// One row; as wide as the text or the placeholder and the cursor.
    open override var intrinsicContentSize: Size? {
        let b = border == .none ? 0 : 2
        return Size(width: max(CharacterWidth.columns(of: text), CharacterWidth.columns(of: placeholder)) + 1 + b, height: 1 + b)
    }

    // MARK: Editing, by code or by keys

    /// Moves the cursor to `position` (clamped), extending the selection when `selecting`.
    public func moveCursor(to position: Int, selecting: Bool = false) {
        buffer.moveCursor(to: position, selecting: selecting)
        setNeedsDisplay()
    }

    /// Selects the characters in `range` (clamped), the cursor at its end.
    public func select(_ range: Range<Int>) {
        buffer.select(range)
        setNeedsDisplay()
    }

    /// Replaces the selection (or inserts at the cursor) with `string`, as one edit.
    public func insert(_ string: String) {
        edited(buffer.insert(string))
    }

    /// Deletes the selection if there is one, else from the cursor to `position`.
    private func delete(to position: Int) {
        edited(buffer.delete(to: position))
    }

    private func edited(_ changed: Bool) {
        guard changed else { return }
        invalidateIntrinsicContentSize()
        setNeedsDisplay()
        sendActions(for: .editingChanged)
    }

    /// Word moves and deletions: a secure field's text is one word, revealing nothing
    /// of its structure.
    func wordStart(before position: Int) -> Int {
        isSecureTextEntry ? 0 : buffer.wordStart(before: position)
    }

    func wordEnd(after position: Int) -> Int {
        isSecureTextEntry ? characters.count : buffer.wordEnd(after: position)
    }

    // MARK: Keys

    open override func pressesBegan(_ presses: Set<Press>) {
        guard isEnabled, let press = presses.first, handle(press.key) else { return super.pressesBegan(presses) }
    }

    /// Performs `key`; false for a key the field does not take.
    private func handle(_ key: Key) -> Bool {
        if key.isPaste {
            insert(Self.singleLine(key.text))
            return true
        }
        let m = key.modifiers
        let byWord = !m.isDisjoint(with: [.alt, .control])
        let selecting = m.contains(.shift)
        switch key.special {
        case .none:
            if key.isText {
                insert(Self.singleLine(key.text))
                return true
            }
            guard m.contains(.control) || m.contains(.alt) else { return false }
            switch (key.text, m.subtracting(.shift)) {
            case ("a", .control): moveCursor(to: 0, selecting: selecting)
            case ("e", .control): moveCursor(to: characters.count, selecting: selecting)
            case ("b", .control): moveCursor(to: cursor - 1, selecting: selecting)
            case ("f", .control): moveCursor(to: cursor + 1, selecting: selecting)
            case ("b", .alt): moveCursor(to: wordStart(before: cursor), selecting: selecting)
            case ("f", .alt): moveCursor(to: wordEnd(after: cursor), selecting: selecting)
            case ("w", .control): delete(to: wordStart(before: cursor))
            case ("d", .alt): delete(to: wordEnd(after: cursor))
            case ("d", .control): delete(to: cursor + 1)
            case ("u", .control): delete(to: 0)
            case ("k", .control): delete(to: characters.count)
            default: return false
            }
        case .left:
            if !selecting, !selectedRange.isEmpty, !byWord { moveCursor(to: selectedRange.lowerBound) } else {
                moveCursor(to: byWord ? wordStart(before: cursor) : cursor - 1, selecting: selecting)
            }
        case .right:
            if !selecting, !selectedRange.isEmpty, !byWord { moveCursor(to: selectedRange.upperBound) } else {
                moveCursor(to: byWord ? wordEnd(after: cursor) : cursor + 1, selecting: selecting)
            }
        case .home: moveCursor(to: 0, selecting: selecting)
        case .end: moveCursor(to: characters.count, selecting: selecting)
        case .backspace: delete(to: byWord ? wordStart(before: cursor) : cursor - 1)
        case .delete: delete(to: byWord ? wordEnd(after: cursor) : cursor + 1)
        case .enter: sendActions(for: .primaryActionTriggered)
        default: return false
        }
        return true
    }

    /// One line: line breaks and tabs become spaces, other control characters go.
    private static func singleLine(_ text: String) -> String {
        var out = ""
        for c in text {
            if c == "\r\n" || c == "\n" || c == "\r" || c == "\t" {
                out.append(" ")
            } else if !c.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) {
                out.append(c)
            }
        }
        return out
    }

    // MARK: Touches

    /// A click places the cursor at the character under it (focus comes with the click).
    open override func touchesBegan(_ touches: Set<Touch>) {
        guard isEnabled, let t = touches.first else { return super.touchesBegan(touches) }
        let column = t.location(in: self).x - textArea.minX
        var x = 0
        var i = firstVisible
        while i < characters.count {
            let w = width(of: characters[i])
            if x + w > column { break }
            x += w
            i += 1
        }
        moveCursor(to: i)
    }

    // MARK: Drawing

    private var textArea: Rect { border == .none ? bounds : bounds.inset(by: EdgeInsets(all: 1)) }

    private func width(of c: Character) -> Int {
        isSecureTextEntry ? 1 : CharacterWidth.columns(of: String(c))
    }

    /// Scrolls so the cursor, and the cell it is drawn in, are inside `width` columns:
    /// whole characters only, so a wide one is never cut at the left edge.
    func scrollToCursor(columns: Int) {
        guard columns > 0 else { return }
        firstVisible = min(firstVisible, cursor, characters.count)
        let cursorCell = cursor < characters.count ? max(1, width(of: characters[cursor])) : 1
        var used = characters[firstVisible..<cursor].reduce(0) { $0 + width(of: $1) }
        while firstVisible < cursor, used + cursorCell > columns {
            used -= width(of: characters[firstVisible])
            firstVisible += 1
        }
    }

    open override func draw(in surface: inout Surface) {
        super.draw(in: &surface)
        let area = textArea
        guard !area.isEmpty else { return }
        scrollToCursor(columns: area.width)
        var base = Style(foreground: foregroundColor, background: backgroundColor ?? .default)
        if !isEnabled { base.attributes.insert(.dim) }
        let focused = isFocused
        let y = area.minY + (area.height - 1) / 2
        surface.withState(origin: surface.origin, clip: surface.clip.intersection(area.offsetBy(dx: surface.origin.x, dy: surface.origin.y))) { s in
            if characters.isEmpty, let first = placeholder.first {
                // The cursor stands on the placeholder's first character rather than
                // over it, so a wide one is not cut in half.
                var dim = base
                dim.attributes.insert(.dim)
                let x = area.minX + s.put(String(first), at: Point(x: area.minX, y: y), style: focused ? Self.reversed(dim) : dim)
                s.put(String(placeholder.dropFirst()), at: Point(x: x, y: y), style: dim)
                return
            }
            var x = area.minX
            let selection = selectedRange
            var i = firstVisible
            while i <= characters.count, x < area.maxX {
                let atCursor = focused && i == cursor
                if i == characters.count {
                    if atCursor { s.put(" ", at: Point(x: x, y: y), style: Self.reversed(base)) }
                    break
                }
                let glyph = isSecureTextEntry ? "•" : String(characters[i])
                let w = width(of: characters[i])
                if x + w > area.maxX { break }
                let marked = atCursor || selection.contains(i)
                s.put(glyph, at: Point(x: x, y: y), style: marked ? Self.reversed(base) : base)
                x += w
                i += 1
            }
        }
    }

    private static func reversed(_ style: Style) -> Style {
        var s = style
        s.attributes.insert(.reverse)
        return s
    }
}
