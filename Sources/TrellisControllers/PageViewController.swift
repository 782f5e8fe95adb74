import TrellisCanvas
import TrellisViews
import TrellisWire

/// Supplies the pages of a `PageViewController` on demand (S4-3).
public protocol PageViewControllerDataSource: AnyObject {
    func pageViewController(_ pageViewController: PageViewController, viewControllerBefore page: ViewController) -> ViewController?
    func pageViewController(_ pageViewController: PageViewController, viewControllerAfter page: ViewController) -> ViewController?
}

/// Told about page turns made by a drag (UIKit's `UIPageViewControllerDelegate`; both
/// optional). Documented: only for gesture-driven transitions, not for
/// `setViewController` or the `goTo…` calls.
public protocol PageViewControllerDelegate: AnyObject {
    /// A drag is about to turn to `pendingViewControllers` (one page here).
    func pageViewController(_ pageViewController: PageViewController, willTransitionTo pendingViewControllers: [ViewController])
    /// The drag's turn finished: `previousViewControllers` were shown before it;
    /// `completed` is false when the turn did not happen.
    func pageViewController(
        _ pageViewController: PageViewController, didFinishAnimating finished: Bool,
        previousViewControllers: [ViewController], transitionCompleted completed: Bool)
}

extension PageViewControllerDelegate {
    public func pageViewController(_ pageViewController: PageViewController, willTransitionTo pendingViewControllers: [ViewController]) {}
    public func pageViewController(
        _ pageViewController: PageViewController, didFinishAnimating finished: Bool,
        previousViewControllers: [ViewController], transitionCompleted completed: Bool) {}
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
open class PageViewController: ViewController {
    public enum Direction: Sendable { case forward, reverse }

    public weak var dataSource: (any PageViewControllerDataSource)?
    /// Told about turns made by a drag (weak, as UIKit's delegates are).
    public weak var delegate: (any PageViewControllerDelegate)?
    /// Called after a page turn finished, with the new current page.
    public var didTurnPage: ((PageViewController, ViewController) -> Void)?
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
        turn(to: page, direction: direction, animated: animated, finished: nil)
    }

    /// `finished` runs when the turn is over (at once when there is nothing to slide).
    private func turn(to page: ViewController, direction: Direction, animated: Bool, finished: (() -> Void)?) {
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
            finished?()
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
                finished?()
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
        guard let target = dx < 0 ? pageAfter : pageBefore, let previous = currentPage else { return }
        delegate?.pageViewController(self, willTransitionTo: [target])
        turn(to: target, direction: dx < 0 ? .forward : .reverse, animated: true) { [weak self] in
            guard let self else { return }
            self.delegate?.pageViewController(
                self, didFinishAnimating: true, previousViewControllers: [previous], transitionCompleted: self.currentPage === target)
        }
    }

    open override func touchesCancelled(_ touches: Set<Touch>) { dragStartX = nil }
}
