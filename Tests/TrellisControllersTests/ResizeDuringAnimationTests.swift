import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Size transitions": a resize made while a container animates is
/// never lost — when the animation ends, the container lays its children out at the
/// final size.
@MainActor
@Suite struct ResizeDuringAnimationTests {
    func shown(_ root: ViewController) -> (Window, ManualClock) {
        let window = Window(size: Size(width: 40, height: 10))
        let clock = ManualClock()
        clock.install(on: window)
        window.rootViewController = root
        window.makeKeyAndVisible()
        return (window, clock)
    }

    @Test func aResizeDuringAPushIsLaidOutWhenTheSlideEnds() {
        let nav = NavigationController(rootViewController: ViewController(id: "A"), id: "Nav")
        let (window, clock) = shown(nav)
        let b = ViewController(id: "B")
        nav.push(b, animated: true)
        clock.seconds += 0.1
        window.resize(to: Size(width: 60, height: 12))
        clock.seconds += 0.2
        window.tick()
        #expect(!nav.isRunningTransition)
        #expect(nav.contentView.bounds.size == Size(width: 60, height: 11))
        #expect(b.view.frame == nav.contentView.bounds)
        #expect(window.compose().size == Size(width: 60, height: 12))
    }

    @Test func aResizeDuringAPopIsLaidOutWhenTheSlideEnds() {
        let a = ViewController(id: "A")
        let nav = NavigationController(rootViewController: a, id: "Nav")
        let (window, clock) = shown(nav)
        nav.push(ViewController(id: "B"), animated: false)
        nav.popViewController(animated: true)
        clock.seconds += 0.1
        window.resize(to: Size(width: 30, height: 8))
        clock.seconds += 0.2
        window.tick()
        #expect(a.view.frame == Rect(x: 0, y: 0, width: 30, height: 7))
    }

    @Test func aResizeDuringAPageTurnIsLaidOutWhenTheTurnEnds() {
        let pages = PagesContainer(Journal(), count: 10)
        let (window, clock) = shown(pages)
        #expect(pages.pager.goToNextPage(animated: true))
        clock.seconds += 0.1
        window.resize(to: Size(width: 100, height: 30))
        clock.seconds += 0.2
        window.tick()
        #expect((pages.pager.currentPage as? NumberedPage)?.index == 1)
        #expect(pages.pager.view.bounds.size == Size(width: 100, height: 29))
        #expect(pages.pager.currentPage?.view.frame == pages.pager.view.bounds)
    }

    /// The container's layout at the end of the animation comes before the dids, so the
    /// appearing child is laid out at the final size when it hears `viewDidAppear`.
    @Test func theAppearingChildHasItsFinalSizeByViewDidAppear() {
        final class SizeAtDidAppear: ViewController {
            var sizes: [Size] = []
            override func viewDidAppear(_ animated: Bool) { super.viewDidAppear(animated); sizes.append(view.bounds.size) }
        }
        let nav = NavigationController(rootViewController: ViewController(id: "A"), id: "Nav")
        let (window, clock) = shown(nav)
        let b = SizeAtDidAppear(id: "B")
        nav.push(b, animated: true)
        window.resize(to: Size(width: 50, height: 20))
        clock.seconds += 0.3
        window.tick()
        #expect(b.sizes == [Size(width: 50, height: 19)])
    }
}
