import TrellisWire
import TrellisCanvas

/// A view whose bounds origin is the content offset: subviews are laid out in content
/// coordinates and the view shows the part at `contentOffset` (UIKit's `UIScrollView`).
///
/// With paging on, a drag that ends snaps to the nearest page (a page is the view's
/// width); a drag of more than a third of a page in one direction moves one page even
/// if the finger did not cross the middle, as a flick does in UIKit.
open class ScrollView: View {
    /// Set by hand, or derived by constraints between subviews and the scroll view's
    /// edges (S4-1): the constraint-derived value wins when there is one.
    public var contentSize: Size {
        get { contentSizeFromConstraints ?? manualContentSize }
        set { manualContentSize = newValue; clampOffset(); setNeedsDisplay() }
    }
    private var manualContentSize = Size.zero
    var contentSizeFromConstraints: Size? { didSet { if oldValue != contentSizeFromConstraints { clampOffset(); setNeedsDisplay() } } }

    public var isPagingEnabled = false
    public var isScrollEnabled = true
    /// False: no scroll indicator. True (the default): while the content is taller than
    /// the view, a `ScrollIndicator` in the last column, over the content, as UIKit's.
    public var showsVerticalScrollIndicator = true { didSet { setNeedsDisplay() } }
    /// Called after the offset changed, by a drag or by code.
    public var didScroll: ((ScrollView) -> Void)?
    /// Called when a drag ended and the offset settled (after snapping to a page).
    public var didEndDragging: ((ScrollView) -> Void)?

    public required init(frame: Rect = .zero) {
        super.init(frame: frame)
        clipsToBounds = true
    }

    public var contentOffset: Point {
        get { bounds.origin }
        set {
            guard newValue != bounds.origin else { return }
            bounds = Rect(origin: newValue, size: bounds.size)
            didScroll?(self)
        }
    }

    public func setContentOffset(_ offset: Point) {
        contentOffset = clamped(offset)
    }

    /// The page whose left edge is nearest the offset (0 when the view has no width).
    public var currentPage: Int {
        guard bounds.width > 0 else { return 0 }
        return Int((Double(contentOffset.x) / Double(bounds.width)).rounded())
    }

    public var numberOfPages: Int {
        guard bounds.width > 0 else { return 0 }
        return max(1, (contentSize.width + bounds.width - 1) / bounds.width)
    }

    public func scroll(toPage page: Int) {
        setContentOffset(Point(x: max(0, min(page, numberOfPages - 1)) * bounds.width, y: contentOffset.y))
    }

    open override var frame: Rect {
        didSet { clampOffset() }
    }

    private func clamped(_ p: Point) -> Point {
        Point(
            x: max(0, min(p.x, contentSize.width - bounds.width)),
            y: max(0, min(p.y, contentSize.height - bounds.height)))
    }

    private func clampOffset() {
        let c = clamped(contentOffset)
        if c != contentOffset { contentOffset = c }
    }

    open override func drawOverSubviews(in surface: inout Surface) {
        guard showsVerticalScrollIndicator, bounds.width > 1 else { return }
        ScrollIndicator.draw(
            in: &surface, x: bounds.maxX - 1, rows: bounds.minY..<bounds.maxY,
            visible: bounds.height, total: contentSize.height, offset: contentOffset.y,
            base: Style(foreground: foregroundColor, background: backgroundColor ?? .default))
    }

    // MARK: Keys

    /// Focusable while it scrolls (as Textual's scrollable containers are), so Tab and
    /// a click reach it and the keys below work with focus in it or inside it.
    open override var canBecomeFocused: Bool { isScrollEnabled }

    /// ↑ ↓ a row, ← → a column (a page with paging on), Page Up/Down a screen less one
    /// row, Home/End the top and the bottom. A key that would not move the offset — the
    /// edge is reached — goes on up the chain, to an outer scroll view or a command.
    open override func pressesBegan(_ presses: Set<Press>) {
        guard isScrollEnabled, let key = presses.first?.key, key.modifiers.isEmpty, scroll(for: key.special) else {
            return super.pressesBegan(presses)
        }
    }

    private func scroll(for special: KeyPress.Special) -> Bool {
        let before = contentOffset
        let o = before
        let screen = max(1, bounds.height - 1)
        switch special {
        case .up: setContentOffset(Point(x: o.x, y: o.y - 1))
        case .down: setContentOffset(Point(x: o.x, y: o.y + 1))
        case .pageUp: setContentOffset(Point(x: o.x, y: o.y - screen))
        case .pageDown: setContentOffset(Point(x: o.x, y: o.y + screen))
        case .home: setContentOffset(Point(x: o.x, y: 0))
        case .end: setContentOffset(Point(x: o.x, y: contentSize.height))
        case .left, .right:
            let step = special == .left ? -1 : 1
            if isPagingEnabled {
                scroll(toPage: currentPage + step)
                // A page turned by a key settles at once, as a drag that ends does.
                if contentOffset != before { didEndDragging?(self) }
            } else {
                setContentOffset(Point(x: o.x + step, y: o.y))
            }
        default: return false
        }
        return contentOffset != before
    }

    /// Lines (and columns) one notch of the wheel moves.
    public static let wheelStep = 3

    /// The wheel scrolls by `wheelStep` a notch; at the edge it goes on up the chain.
    open override func scrollWheel(_ input: ScrollInput) -> Bool {
        guard isScrollEnabled else { return false }
        let before = contentOffset
        setContentOffset(Point(
            x: before.x + Int(input.deltaX) * Self.wheelStep, y: before.y + Int(input.deltaY) * Self.wheelStep))
        return contentOffset != before
    }

    // MARK: Dragging

    private var dragStart: (touch: Point, offset: Point)?

    open override func touchesBegan(_ touches: Set<Touch>) {
        guard isScrollEnabled, let t = touches.first else { return super.touchesBegan(touches) }
        dragStart = (t.location, contentOffset)
    }

    open override func touchesMoved(_ touches: Set<Touch>) {
        guard let start = dragStart, let t = touches.first else { return super.touchesMoved(touches) }
        let d = t.location - start.touch
        setContentOffset(Point(x: start.offset.x - d.x, y: start.offset.y - d.y))
    }

    open override func touchesEnded(_ touches: Set<Touch>) {
        guard let start = dragStart else { return super.touchesEnded(touches) }
        dragStart = nil
        if isPagingEnabled, bounds.width > 0 {
            let startPage = Int((Double(start.offset.x) / Double(bounds.width)).rounded())
            let moved = contentOffset.x - start.offset.x
            var page = currentPage
            if page == startPage, abs(moved) * 3 > bounds.width { page += moved > 0 ? 1 : -1 }
            scroll(toPage: page)
        }
        didEndDragging?(self)
    }

    open override func touchesCancelled(_ touches: Set<Touch>) {
        guard let start = dragStart else { return super.touchesCancelled(touches) }
        dragStart = nil
        setContentOffset(start.offset)
    }
}
