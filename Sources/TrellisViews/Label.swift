import TrellisWire
import TrellisCanvas

/// One line of text. East Asian wide characters take two cells (the seeds' UIs are
/// Japanese); text that does not fit is cut at a character boundary, never through a
/// wide character.
@MainActor
open class Label: View {
    public enum Alignment: String, Sendable { case left, center, right }

    public var text = "" { didSet { if text != oldValue { invalidateIntrinsicContentSize(); setNeedsDisplay() } } }
    public var alignment: Alignment = .left { didSet { setNeedsDisplay() } }
    public var attributes: CellAttributes = [] { didSet { setNeedsDisplay() } }

    public required init(frame: Rect = .zero) {
        super.init(frame: frame)
    }

    public convenience init(_ text: String, frame: Rect = .zero) {
        self.init(frame: frame)
        self.text = text
    }

    /// As many cells as the text is wide, one row.
    open override var intrinsicContentSize: Size? {
        Size(width: CharacterWidth.columns(of: text), height: 1)
    }

    open override func draw(in surface: inout Surface) {
        super.draw(in: &surface)
        guard bounds.height > 0 else { return }
        let inner = border == .none ? bounds : bounds.inset(by: EdgeInsets(all: 1))
        let width = CharacterWidth.columns(of: text)
        let x: Int = switch alignment {
        case .left: inner.minX
        case .center: inner.minX + max(0, (inner.width - width) / 2)
        case .right: inner.minX + max(0, inner.width - width)
        }
        var textStyle = style
        textStyle.attributes = attributes
        _ = surface.withState(origin: surface.origin, clip: surface.clip.intersection(inner.offsetBy(dx: surface.origin.x, dy: surface.origin.y))) { s in
            s.put(text, at: Point(x: x, y: inner.minY + max(0, (inner.height - 1) / 2)), style: textStyle)
        }
    }
}
