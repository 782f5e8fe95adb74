import TrellisCanvas
import TrellisViews
import TrellisWire

/// Supplies the pages of a `PageViewController` on demand (S4-3).
@MainActor
public protocol PageViewControllerDataSource: AnyObject {
    func pageViewController(_ pageViewController: PageViewController, viewControllerBefore page: ViewController) -> ViewController?
    func pageViewController(_ pageViewController: PageViewController, viewControllerAfter page: ViewController) -> ViewController?
}

/// Pages one child at a time, asking a data source for the page before or after the
/// current one (UIKit's `UIPageViewController`, scroll style, S4-3).
///
/// Only the current page and its two neighbours are kept: a neighbour is asked for when
/// a page becomes current, and pages further away are released, so a thousand pages
/// cost three controllers. A horizontal drag of a quarter of the width, or the
/// `goTo…` calls, turn the page with a slide. The page control is *not* part of it
/// (as in the seed, the embedding container keeps a separate one in step through
/// `didTurnPage`). The current page stays current across a resize (S4-4).
@MainActor
open class PageViewController: ViewController {
    public enum Direction: Sendable { case forward, reverse }

    public weak var dataSource: (any PageViewControllerDataSource)?
    /// Called after a page turn finished, with the new current page.
    public var didTurnPage: (@MainActor (PageViewController, ViewController) -> Void)?
    public var slideDuration = 0.25

    public private(set) var currentPage: ViewController?
    /// The neighbours kept alive for the current page, asked for on demand.
    public private(set) var pageBefore: ViewController?
    public private(set) var pageAfter: ViewController?

    open override func loadView() {
        let root = View()
        root.identifier = "pages"
        root.clipsToBounds = true
        view = root
    }

    open override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        if let v = currentPage?.viewIfLoaded, !isRunningTransition { v.frame = view.bounds }
    }

    /// Makes `page` the current page (the first page is set this way at load).
    public func setViewController(_ page: ViewController, direction: Direction = .forward, animated: Bool = false) {
        let old = currentPage
        guard old !== page else { return }
        if page.parent !== self { addChild(page) }
        currentPage = page
        guard let old, isViewLoaded, old.viewIfLoaded?.superview != nil else {
            if isViewLoaded {
                page.view.frame = view.bounds
                view.addSubview(page.view)
            }
            page.didMove(toParent: self)
            settle(releasing: old)
            return
        }
        let w = view.bounds.width
        let sign = direction == .forward ? 1 : -1
        page.view.frame = view.bounds.offsetBy(dx: sign * w, dy: 0)
        do {
            try transition(from: old, to: page, duration: animated ? slideDuration : 0, animations: { [view] in
                page.view.frame = view.bounds
                old.view.frame = view.bounds.offsetBy(dx: -sign * w, dy: 0)
            }, completion: { [weak self] _ in
                page.didMove(toParent: self)
                self?.settle(releasing: old)
            })
        } catch {
            View.diagnostics("\(id): page turn failed: \(error)")
        }
    }

    open override func viewDidLoad() {
        super.viewDidLoad()
        if let page = currentPage, page.viewIfLoaded?.superview == nil {
            page.view.frame = view.bounds
            view.addSubview(page.view)
        }
    }

    @discardableResult
    public func goToNextPage(animated: Bool = true) -> Bool {
        guard let next = pageAfter else { return false }
        setViewController(next, direction: .forward, animated: animated)
        return true
    }

    @discardableResult
    public func goToPreviousPage(animated: Bool = true) -> Bool {
        guard let previous = pageBefore else { return false }
        setViewController(previous, direction: .reverse, animated: animated)
        return true
    }

    /// After a turn: the neighbours of the new page are asked for; every other page is
    /// released (removed from the children).
    private func settle(releasing old: ViewController?) {
        guard let current = currentPage else { return }
        // The page we came from is a neighbour already made: keep it rather than ask again.
        let newBefore = old.flatMap { pageAfter === current ? $0 : nil } ?? dataSource?.pageViewController(self, viewControllerBefore: current)
        let newAfter = old.flatMap { pageBefore === current ? $0 : nil } ?? dataSource?.pageViewController(self, viewControllerAfter: current)
        pageBefore = newBefore
        pageAfter = newAfter
        for child in children where child !== current {
            child.willMove(toParent: nil)
            child.viewIfLoaded?.removeFromSuperview()
            child.removeFromParent()
        }
        didTurnPage?(self, current)
    }

    // MARK: Swiping (touches the pages did not handle come up the chain to here)

    private var dragStartX: Int?

    open override func touchesBegan(_ touches: Set<Touch>) {
        dragStartX = touches.first?.location.x
    }

    open override func touchesMoved(_ touches: Set<Touch>) {}

    open override func touchesEnded(_ touches: Set<Touch>) {
        guard let start = dragStartX, let end = touches.first?.location.x else { return }
        dragStartX = nil
        let dx = end - start
        guard abs(dx) * 4 >= max(1, view.bounds.width) else { return }
        if dx < 0 { goToNextPage() } else { goToPreviousPage() }
    }

    open override func touchesCancelled(_ touches: Set<Touch>) { dragStartX = nil }
}
