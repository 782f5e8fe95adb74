import TrellisWire
import TrellisCanvas

/// A titled control that fires `.touchUpInside` on tap. Drawn as its title centred in
/// its bounds, reversed while highlighted.
open class Button: Control {
    public var title = "" { didSet { if title != oldValue { invalidateIntrinsicContentSize(); setNeedsDisplay() } } }

    public required init(frame: Rect = .zero) { super.init(frame: frame) }

    public convenience init(title: String, frame: Rect = .zero) {
        self.init(frame: frame)
        self.title = title
    }

    /// Tab and a click focus an enabled button; focused, Enter or Space presses it.
    open override var canBecomeFocused: Bool { isEnabled }

    open override func pressesBegan(_ presses: Set<Press>) {
        guard isEnabled, let key = presses.first?.key, key.modifiers.isEmpty,
              key.special == .enter || (key.special == .none && key.text == " ")
        else { return super.pressesBegan(presses) }
        sendActions(for: .touchUpInside)
        sendActions(for: .primaryActionTriggered)
    }

    /// The title with a cell of padding each side, inside a border if it has one.
    open override var intrinsicContentSize: Size? {
        let b = border == .none ? 0 : 2
        return Size(width: CharacterWidth.columns(of: title) + 2 + b, height: 1 + b)
    }

    open override func draw(in surface: inout Surface) {
        super.draw(in: &surface)
        let inner = border == .none ? bounds : bounds.inset(by: EdgeInsets(all: 1))
        guard !inner.isEmpty else { return }
        var s = style
        if isHighlighted { s.attributes.insert(.reverse) }
        if !isEnabled { s.attributes.insert(.dim) }
        let w = CharacterWidth.columns(of: title)
        let at = Point(x: inner.minX + max(0, (inner.width - w) / 2), y: inner.minY + (inner.height - 1) / 2)
        surface.put(title, at: at, style: s)
    }
}
