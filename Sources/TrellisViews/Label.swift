import TrellisWire
import TrellisCanvas

/// Text: one line by default, or as many as `numberOfLines` allows, broken by
/// `lineBreakMode`. East Asian wide characters take two cells (the seeds' UIs are
/// Japanese); text that does not fit is cut at a character boundary, never through a
/// wide character.
open class Label: View {
    public enum Alignment: String, Sendable { case left, center, right }

    public var text = "" { didSet { if text != oldValue { invalidateIntrinsicContentSize(); setNeedsDisplay() } } }
    public var alignment: Alignment = .left { didSet { setNeedsDisplay() } }
    public var attributes: CellAttributes = [] { didSet { setNeedsDisplay() } }
    /// The most lines the text may take; 0 for as many as it needs (and the height
    /// allows), as in UIKit. 1 keeps it on one line whatever its length.
    public var numberOfLines = 1 { didSet { if numberOfLines != oldValue { invalidateIntrinsicContentSize(); setNeedsDisplay() } } }
    /// How lines break and the text is cut. Chosen default: clipping, as Trellis labels
    /// always cut; UIKit's is `.byTruncatingTail`.
    public var lineBreakMode: LineBreakMode = .byClipping { didSet { setNeedsDisplay() } }
    /// The width a label of several lines wraps at to tell layout its size (UIKit's
    /// `preferredMaxLayoutWidth`); nil: its lines as the text breaks them, unwrapped.
    public var preferredMaxLayoutWidth: Int? { didSet { invalidateIntrinsicContentSize() } }

    public required init(frame: Rect = .zero) {
        super.init(frame: frame)
    }

    public convenience init(_ text: String, frame: Rect = .zero) {
        self.init(frame: frame)
        self.text = text
    }

    /// As many cells as the text is wide, one row; for several lines, the lines the text
    /// takes at `preferredMaxLayoutWidth`.
    open override var intrinsicContentSize: Size? {
        guard numberOfLines != 1 else { return Size(width: CharacterWidth.columns(of: text), height: 1) }
        let lines = preferredMaxLayoutWidth.map {
            LineBreaking.lines(of: text, width: $0, mode: lineBreakMode, maxLines: numberOfLines)
        } ?? text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let shown = numberOfLines > 0 ? Array(lines.prefix(numberOfLines)) : lines
        return Size(width: shown.map { CharacterWidth.columns(of: $0) }.max() ?? 0, height: max(1, shown.count))
    }

    /// The lines drawn in `width` columns and `height` rows.
    func lines(width: Int, height: Int) -> [String] {
        if numberOfLines == 1 {
            return [lineBreakMode == .byTruncatingTail ? LineBreaking.truncatingTail(text, width: width) : text]
        }
        let most = numberOfLines == 0 ? height : min(numberOfLines, height)
        return LineBreaking.lines(of: text, width: width, mode: lineBreakMode, maxLines: most)
    }

    open override func draw(in surface: inout Surface) {
        super.draw(in: &surface)
        guard bounds.height > 0 else { return }
        let inner = border == .none ? bounds : bounds.inset(by: EdgeInsets(all: 1))
        let lines = self.lines(width: inner.width, height: inner.height)
        var textStyle = style
        textStyle.attributes = attributes
        let top = inner.minY + max(0, (inner.height - lines.count) / 2)
        surface.withState(origin: surface.origin, clip: surface.clip.intersection(inner.offsetBy(dx: surface.origin.x, dy: surface.origin.y))) { s in
            for (i, line) in lines.enumerated() {
                let width = CharacterWidth.columns(of: line)
                let x: Int = switch alignment {
                case .left: inner.minX
                case .center: inner.minX + max(0, (inner.width - width) / 2)
                case .right: inner.minX + max(0, inner.width - width)
                }
                s.put(line, at: Point(x: x, y: top + i), style: textStyle)
            }
        }
    }
}
