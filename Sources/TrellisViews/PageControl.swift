import TrellisWire
import TrellisCanvas

/// A row of dots, one per page, the current one filled (UIKit's `UIPageControl`).
/// A tap right of the current dot goes one page forward, left of it one back, and sends
/// `.valueChanged`; whoever owns the pages listens and scrolls (S4-3).
open class PageControl: Control {
    public var numberOfPages = 0 { didSet { currentPage = min(currentPage, max(0, numberOfPages - 1)); invalidateIntrinsicContentSize(); setNeedsDisplay() } }
    public var currentPage = 0 { didSet { if currentPage != oldValue { setNeedsDisplay() } } }
    public var hidesForSinglePage = false { didSet { if hidesForSinglePage != oldValue { setNeedsDisplay() } } }

    public required init(frame: Rect = .zero) { super.init(frame: frame) }

    /// "● ○ ○": a dot and a space per page.
    open override var intrinsicContentSize: Size? { Size(width: max(0, numberOfPages * 2 - 1), height: 1) }

    private var dotsOrigin: Int { max(0, (bounds.width - (numberOfPages * 2 - 1)) / 2) }

    open override func touchesEnded(_ touches: Set<Touch>) {
        guard isEnabled, let t = touches.first, bounds.contains(t.location(in: self)) else { return super.touchesEnded(touches) }
        let x = t.location(in: self).x - bounds.minX
        let current = dotsOrigin + currentPage * 2
        let next = x > current ? currentPage + 1 : x < current ? currentPage - 1 : currentPage
        if next != currentPage, next >= 0, next < numberOfPages {
            currentPage = next
            sendActions(for: .valueChanged)
        }
    }

    open override func draw(in surface: inout Surface) {
        super.draw(in: &surface)
        guard !(hidesForSinglePage && numberOfPages <= 1) else { return }
        let dots = (0..<numberOfPages).map { $0 == currentPage ? "●" : "○" }.joined(separator: " ")
        surface.put(dots, at: Point(x: bounds.minX + dotsOrigin, y: bounds.minY + (bounds.height - 1) / 2), style: style)
    }
}
