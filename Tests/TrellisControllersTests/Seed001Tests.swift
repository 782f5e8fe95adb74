import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

// Seed 001: embedding in code, and switching children.

/// Sub1 and Sub2: a label with their name; Sub1 has a `next` button that asks whoever
/// contains it to show Sub1Detail (S1-3) without knowing what kind of container it is.
final class SubController: RecordingController {
    let label = Label()
    let nextButton = Button(title: "next")
    var detail: String?
    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = name == "Sub1" ? .indexed(2) : .indexed(3)
        label.text = name
        label.frame = Rect(x: 1, y: 0, width: 10, height: 1)
        view.addSubview(label)
        if let detail {
            nextButton.identifier = "\(name).next"
            nextButton.frame = Rect(x: 1, y: 1, width: 6, height: 1)
            nextButton.addAction { [unowned self] _ in self.requestShow(detail) }
            view.addSubview(nextButton)
        }
    }
}

final class MainViewController: RecordingController {
    enum Strategy { case bringToFront, hide, swap }
    let strategy: Strategy
    let containerView = View()
    let sub1: SubController
    let sub2: SubController
    private(set) var showingSub1 = true

    init(_ journal: Journal, strategy: Strategy) {
        self.strategy = strategy
        sub1 = SubController("Sub1", journal)
        sub1.detail = "Sub1Detail"
        sub2 = SubController("Sub2", journal)
        super.init("Main", journal)
        title = "Main"
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        containerView.identifier = "containerView"
        containerView.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(containerView)
        // S1-1, in cells: leading 2, trailing −2, bottom −3, a third of the height.
        LayoutConstraint.activate([
            containerView.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: 2),
            containerView.trailingAnchor.constraint(equalTo: view.trailingAnchor, constant: -2),
            containerView.bottomAnchor.constraint(equalTo: view.bottomAnchor, constant: -3),
            containerView.heightAnchor.constraint(equalTo: view.heightAnchor, multiplier: 1.0 / 3),
        ])
        let next = Button(title: "next")
        next.identifier = "Main.next"
        next.frame = Rect(x: 2, y: 0, width: 6, height: 1)
        next.addAction { [unowned self] _ in self.requestShow("MainDetail") }
        let change = Button(title: "change")
        change.identifier = "Main.change"
        change.frame = Rect(x: 10, y: 0, width: 8, height: 1)
        change.addAction { [unowned self] _ in self.change() }
        view.addSubview(next)
        view.addSubview(change)
        embed(sub1)
        if strategy != .swap { embed(sub2) }
        if strategy == .bringToFront { containerView.bringSubviewToFront(sub1.view) }
        if strategy == .hide { sub2.view.isHidden = true }
    }

    /// S1-2: addChild, the child's view into containerView, all four edges pinned,
    /// didMove(toParent:).
    func embed(_ child: ViewController) {
        addChild(child)
        containerView.addSubview(child.view)
        child.view.pinEdges(to: containerView)
        child.didMove(toParent: self)
    }

    /// S1-4: the three strategies.
    func change() {
        let (shown, other) = showingSub1 ? (sub1, sub2) : (sub2, sub1)
        switch strategy {
        case .bringToFront:
            containerView.bringSubviewToFront(other.view)
        case .hide:
            shown.view.isHidden = true
            other.view.isHidden = false
        case .swap:
            shown.willMove(toParent: nil)
            shown.view.removeFromSuperview()
            shown.removeFromParent()
            embed(other)
        }
        showingSub1.toggle()
    }
}

@MainActor
@Suite struct Seed001Tests {
    let journal = Journal()
    let registry = ControllerRegistry()

    func make(_ strategy: MainViewController.Strategy = .swap) -> (Window, NavigationController, MainViewController) {
        let journal = self.journal
        registry.register("MainDetail") { RecordingController("MainDetail", journal) }
        registry.register("Sub1Detail") { RecordingController("Sub1Detail", journal) }
        let main = MainViewController(journal, strategy: strategy)
        let nav = NavigationController(rootViewController: main, registry: registry, id: "Nav")
        let window = Window(size: Size(width: 80, height: 25))
        window.rootViewController = nav
        window.makeKeyAndVisible()
        return (window, nav, main)
    }

    /// The text of screen row `y`, trimmed.
    func row(_ window: Window, _ y: Int) -> String {
        let lines = window.screenText.split(separator: "\n", omittingEmptySubsequences: false)
        return y < lines.count ? lines[y].trimmingCharacters(in: .whitespaces) : ""
    }

    @Test func s1_1_s1_2_containerViewLaidOutByConstraintsAndSub1PinnedInside() {
        let (window, _, main) = make()
        window.rootView.layoutIfNeeded()
        // The navigation bar takes row 0; Main's view fills the 80×24 below it.
        #expect(main.view.frame == Rect(x: 0, y: 0, width: 80, height: 24))
        #expect(main.view.convert(Point.zero, to: nil) == Point(x: 0, y: 1))
        #expect(main.containerView.frame == Rect(x: 2, y: 13, width: 76, height: 8))
        #expect(main.sub1.view.frame == Rect(x: 0, y: 0, width: 76, height: 8))
        #expect(main.sub1.parent === main)
        #expect(row(window, 14).hasPrefix("Sub1"))
    }

    @Test func s1_3_nextButtonsPushDetailsWithoutKnowingTheContainer() {
        let (window, nav, main) = make()
        let clock = ManualClock()
        clock.install(on: window)
        _ = window.compose()
        // Main's own `next` (row 1 on screen: the bar is row 0).
        #expect(window.tap(at: Point(x: 3, y: 1)))
        #expect(nav.topViewController?.id == "MainDetail")
        clock.seconds += 0.3
        window.tick()
        #expect(journal.only("MainDetail.didMove") == ["MainDetail.didMove(toParent: Nav)"])
        nav.popViewController(animated: false)
        #expect(nav.topViewController === main)

        // Sub1's `next`, inside the container view: the request goes Sub1 → Main → Nav.
        let routes = RouteRecorder(window)
        #expect(window.tap(at: Point(x: 2 + 1 + 1, y: 1 + 13 + 1)))
        #expect(nav.topViewController?.id == "Sub1Detail")
        #expect(routes.lines.contains("request Sub1→Main"))
        #expect(routes.lines.contains("request Main→Nav"))
    }

    /// S1-3, tapped twice quickly: Back while the detail still slides in is refused, not
    /// half-done (the content stayed empty when the pop finished under the push).
    @Test func backDuringThePushSlideIsRefusedAndWorksAfterIt() {
        let (window, nav, main) = make()
        let clock = ManualClock()
        clock.install(on: window)
        _ = window.compose()
        #expect(window.tap(at: Point(x: 3, y: 1)))
        #expect(nav.isTransitioning)
        #expect(nav.popViewController(animated: true) == nil)
        #expect(nav.handle(Request(name: StandardRequest.back), from: main)?.status == .declined)
        #expect(nav.topViewController?.id == "MainDetail")
        clock.seconds += 0.3
        window.tick()
        #expect(!nav.isTransitioning)
        #expect(nav.popViewController(animated: true)?.id == "MainDetail")
        clock.seconds += 0.3
        window.tick()
        #expect(nav.topViewController === main && main.view.superview === nav.contentView)
        #expect(main.view.frame == nav.contentView.bounds)
    }

    @Test(arguments: [MainViewController.Strategy.bringToFront, .hide, .swap])
    func s1_4_changeSwitchesBetweenSub1AndSub2(_ strategy: MainViewController.Strategy) {
        let (window, _, main) = make(strategy)
        let routes = RouteRecorder(window)
        #expect(row(window, 14).hasPrefix("Sub1"))
        routes.clearing()
        #expect(window.tap(at: Point(x: 11, y: 1)))
        #expect(row(window, 14).hasPrefix("Sub2"))
        let switched = routes.records
        #expect(window.tap(at: Point(x: 11, y: 1)))
        #expect(row(window, 14).hasPrefix("Sub1"))

        // Each strategy leaves its own trace in the routing log.
        let lines = switched.map { "\($0.kind) \($0.source)→\($0.target) \($0.detail ?? "")" }
        switch strategy {
        case .bringToFront:
            #expect(main.children.count == 2)
            #expect(lines.contains { $0.hasPrefix("placement Main→Sub2") && $0.hasSuffix("z 1") })
            #expect(!lines.contains { $0.hasPrefix("containment") })
        case .hide:
            #expect(main.children.count == 2)
            #expect(lines.contains { $0.hasPrefix("placement Main→Sub1") && $0.hasSuffix("hidden") })
            #expect(!lines.contains { $0.hasPrefix("containment") })
        case .swap:
            #expect(main.children.map(\.id) == ["Sub1"])
            #expect(lines.filter { $0.hasPrefix("containment") } == [
                "containment Main→Sub1 didMove → nil",
                "containment Main→Sub2 willMove → Main",
            ])
            #expect(lines.contains("appearance Main→Sub1 willDisappear"))
            #expect(lines.contains("appearance Main→Sub2 didAppear"))
        }
    }

    @Test func s1_5_childrenAppearAfterTheirParent() {
        _ = make(.bringToFront)
        #expect(journal.only("Main.viewWillAppear", "Main.viewDidAppear", "Sub1.viewWillAppear", "Sub1.viewDidAppear", "Sub2.viewWillAppear", "Sub2.viewDidAppear") == [
            "Main.viewWillAppear", "Sub1.viewWillAppear", "Sub2.viewWillAppear",
            "Main.viewDidAppear", "Sub1.viewDidAppear", "Sub2.viewDidAppear",
        ])
    }
}
