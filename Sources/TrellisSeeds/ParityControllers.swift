import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

/// Controllers for the placement-parity tests: the same code runs with `ParityChild`
/// in the container's process or in its own, and must produce the same ordered
/// callback log.
///
/// `ParityContainer` embeds its child in `viewWillAppear`, as seed 002's container does
/// (S2-2), asking `registry` for it by name — which is where placement is decided.
public final class ParityContainer: ViewController {
    public let registry: ControllerRegistry
    /// The class of the child it embeds, always as "Child": `ParityChild`, or a container
    /// of its own (`ParityTabs`) for the nested scenarios.
    public let childClass: String
    public private(set) var child: ViewController?
    public private(set) var requestsAnswered: [String] = []

    public init(registry: ControllerRegistry, id: ControllerID = "Container", childClass: String = "ParityChild") {
        self.registry = registry
        self.childClass = childClass
        super.init(id: id)
    }

    public override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        guard child == nil, let c = registry.make(childClass, id: "Child") else { return }
        child = c
        addChild(c)
        view.addSubview(c.view)
        c.view.pinEdges(to: view, insets: 1)
        c.didMove(toParent: self)
    }

    /// Replaces the child with a new `ParityStep` ("Other") by `transition(from:to:…)`
    /// over `duration` (S3-4): the new one hears each phase first.
    public func swapChild(duration: Double) {
        guard let old = child else { return }
        let new = ParityStep(id: "Other")
        old.willMove(toParent: nil)
        addChild(new)
        new.view.frame = old.view.frame
        do {
            try transition(from: old, to: new, duration: duration, animations: nil) { _ in
                old.removeFromParent()
                new.didMove(toParent: self)
            }
            child = new
        } catch {
            View.diagnostics("\(id): \(error)")
        }
    }

    /// Swaps the child out (S2-4's order), at the child's request.
    public override func handle(_ request: Request, from child: ViewController) -> Reply? {
        requestsAnswered.append(request.name)
        guard request.name == "leave", let c = self.child else { return nil }
        c.willMove(toParent: nil)
        c.view.removeFromSuperview()
        c.removeFromParent()
        self.child = nil
        return Reply(status: .ok, payload: Array("left".utf8))
    }
}

/// Has an in-process child of its own, and a button that asks its parent to let it
/// leave — by delegation, not knowing the parent's type.
public final class ParityChild: ViewController {
    public let leaf = ParityLeaf(id: "Leaf")
    public private(set) var lastReply: Reply?

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .indexed(4)
        addChild(leaf)
        view.addSubview(leaf.view)
        leaf.view.frame = Rect(x: 1, y: 1, width: 10, height: 1)
        leaf.didMove(toParent: self)
        let leave = Button(title: "leave")
        leave.identifier = "leave"
        leave.frame = Rect(x: 1, y: 2, width: 9, height: 1)
        leave.addAction { [unowned self] _ in self.sendRequest("leave") { self.lastReply = $0 } }
        view.addSubview(leave)
    }
}

public final class ParityLeaf: ViewController {
    public override func viewDidLoad() {
        super.viewDidLoad()
        let label = Label("leaf")
        label.frame = Rect(x: 0, y: 0, width: 4, height: 1)
        view.addSubview(label)
    }
}

/// A tab bar controller over a navigation controller (`ParityNavigation`) and a `ParityStep` made by name as "TabB" — so the nested scenarios have
/// a container in another process with children of its own, and the laziness scenario can
/// place a tab that is not selected in another process.
public final class ParityTabs: TabBarController {
    public let registry: ControllerRegistry

    public init(registry: ControllerRegistry, id: ControllerID? = nil) {
        self.registry = registry
        super.init(id: id)
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        let navigation = ParityNavigation(registry: registry)
        navigation.title = "nav"
        guard let second = registry.make("ParityStep", id: "TabB") else { return }
        second.title = "B"
        viewControllers = [navigation, second]
    }

    public override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        logSizeTransition(to: size, with: coordinator)
        super.viewWillTransition(to: size, with: coordinator)
    }

    public override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        logMovement()
    }

    public override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        logMovement()
    }
}

/// A navigation controller whose root is a `ParityStep` ("NavRoot") and which pushes a
/// new step ("Pushed1", "Pushed2" …, made by name as `ParityPushed`) when a step below
/// asks for `push`. Its slide is
/// long enough for a test to act while it runs (rule 8, a resize during the animation).
public final class ParityNavigation: NavigationController {
    private var pushes = 0

    public init(registry: ControllerRegistry, id: ControllerID = "Nav") {
        super.init(rootViewController: ParityStep(id: "NavRoot"), registry: registry, id: id)
        slideDuration = 0.5
    }

    public override func handle(_ request: Request, from child: ViewController) -> Reply? {
        guard request.name == "push" else { return super.handle(request, from: child) }
        pushes += 1
        // By name, so that a test can place the pushed controller in another process.
        guard let next = registry.make("ParityPushed", id: ControllerID("Pushed\(pushes)")!) else { return nil }
        return push(next, animated: true) ? Reply(status: .ok) : Reply(status: .declined)
    }

    public override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        logSizeTransition(to: size, with: coordinator)
        super.viewWillTransition(to: size, with: coordinator)
    }
}

/// A leaf that says in the callback log what the parity scenarios compare beyond UIKit's
/// callbacks: why it appears or disappears (the movement flags), the size it has when it
/// has appeared, and its size transitions. Its "push" button asks up for a push.
public final class ParityStep: ViewController {
    public override func viewDidLoad() {
        super.viewDidLoad()
        let push = Button(title: "push")
        push.identifier = "push"
        push.frame = Rect(x: 1, y: 1, width: 6, height: 1)
        push.addAction { [unowned self] _ in self.sendRequest("push") }
        view.addSubview(push)
    }

    public override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        logMovement()
    }

    public override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        logCallback("size \(view.bounds.width)×\(view.bounds.height)")
    }

    public override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        logMovement()
    }

    public override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        logSizeTransition(to: size, with: coordinator)
        super.viewWillTransition(to: size, with: coordinator)
    }
}

extension ViewController {
    /// Logs why it appears or disappears, if it is moving to or from a parent.
    func logMovement() {
        if isMovingToParent { logCallback("isMovingToParent") }
        if isMovingFromParent { logCallback("isMovingFromParent") }
    }

    /// Logs the transition and, alongside it and after it, the size the view has then: the
    /// order of every participant's blocks and the sizes they see are what the size
    /// parity scenario compares (issue 23).
    func logSizeTransition(to size: Size, with coordinator: TransitionCoordinator) {
        logCallback("viewWillTransition(to: \(size.width)×\(size.height))")
        coordinator.animate(alongsideTransition: { [unowned self] _ in
            self.logCallback("alongside \(self.view.bounds.width)×\(self.view.bounds.height)")
        }, completion: { [unowned self] _ in
            self.logCallback("transition completed \(self.view.bounds.width)×\(self.view.bounds.height)")
        })
    }
}

/// A page view controller over three `ParitySteps` ("Page1" … "Page3") that turns to the
/// next page when its page asks for `push`: the page-turn and resize-mid-turn scenarios
/// with the pages' container in another process.
public final class ParityPages: PageViewController, PageViewControllerDataSource {
    public override init(id: ControllerID? = nil) {
        super.init(id: id)
        slideDuration = 0.5
        dataSource = self
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        setViewController(ParityStep(id: "Page1"))
    }

    public override func handle(_ request: Request, from child: ViewController) -> Reply? {
        guard request.name == "push" else { return nil }
        return goToNextPage() ? Reply(status: .ok) : Reply(status: .declined)
    }

    public override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        logSizeTransition(to: size, with: coordinator)
        super.viewWillTransition(to: size, with: coordinator)
    }

    public func pageViewController(_ pageViewController: PageViewController, viewControllerBefore page: ViewController) -> ViewController? {
        Self.page(Self.number(of: page) - 1)
    }

    public func pageViewController(_ pageViewController: PageViewController, viewControllerAfter page: ViewController) -> ViewController? {
        Self.page(Self.number(of: page) + 1)
    }

    private static func number(of page: ViewController) -> Int { Int(page.id.rawValue.dropFirst("Page".count)) ?? 0 }
    private static func page(_ n: Int) -> ViewController? { (1...3).contains(n) ? ParityStep(id: ControllerID("Page\(n)")!) : nil }
}
