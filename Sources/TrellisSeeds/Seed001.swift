import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

// Seed 001: embedding in code, and switching children (S1-1 … S1-5).

/// Seed 001's root: a navigation controller, so that the `next` buttons have somewhere
/// to push their details (S1-3). Its root controller is `Seed001Main`.
public final class Seed001: NavigationController {
    public init(registry: ControllerRegistry, id: ControllerID = "Seed001") {
        super.init(rootViewController: Seed001Main(registry: registry), registry: registry, id: id)
    }

    /// The main controller, at the bottom of the stack.
    public var main: Seed001Main? { viewControllers.first as? Seed001Main }
}

/// The article's `MainViewController`: a `containerView` laid out by constraints (S1-1)
/// holding Sub1 or Sub2 (S1-2), a `next` button that pushes MainDetail, a `change`
/// button that switches the children (S1-4), and — the demo's addition — a row of
/// buttons choosing how `change` switches.
public final class Seed001Main: ViewController {
    public let registry: ControllerRegistry
    public let containerView = View()
    /// Made by name in `init`, so either may run in another process.
    public let sub1: ViewController
    public let sub2: ViewController
    public private(set) var strategy: SwitchingStrategy = .swap
    public private(set) var showingSub1 = true
    private var strategyButtons: [SwitchingStrategy: Button] = [:]
    private let explanation = Label()

    public init(registry: ControllerRegistry, id: ControllerID = "Main") {
        self.registry = registry
        sub1 = registry.make("Seed001Sub1", id: "Sub1") ?? Seed001Sub(name: "Sub1", detail: "Sub1Detail", id: "Sub1")
        sub2 = registry.make("Seed001Sub2", id: "Sub2") ?? Seed001Sub(name: "Sub2", detail: nil, id: "Sub2")
        super.init(id: id)
        title = "Main"
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        containerView.identifier = "containerView"
        containerView.border = .rounded
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
        // S1-3: a push, asked of whatever container shows Main.
        next.addAction { [unowned self] _ in self.requestShow("MainDetail") }
        let change = Button(title: "change")
        change.identifier = "Main.change"
        change.addAction { [unowned self] _ in self.change() }
        DemoLayout.row([next, change], in: view, top: 1, leading: 2)

        let buttons = SwitchingStrategy.allCases.map { s in
            let b = Button(title: s.buttonTitle)
            b.identifier = "strategy.\(s.rawValue)"
            b.addAction { [unowned self] _ in self.use(s) }
            strategyButtons[s] = b
            return b
        }
        DemoLayout.row([Label("switch by:")] + buttons, in: view, top: 3, leading: 2)
        DemoLayout.line(explanation, in: view, top: 4)

        // S1-2 for the one shown first; strategies (a) and (b) embed the other too.
        embed(sub1)
        use(strategy)
    }

    /// S1-2: addChild, the child's root view into `containerView` with all four edges
    /// pinned (inside the border), `didMove(toParent:)`.
    private func embed(_ child: ViewController) {
        addChild(child)
        containerView.addSubview(child.view)
        child.view.pinEdges(to: containerView, insets: 1)
        child.didMove(toParent: self)
    }

    /// The container's half of removing a child (S3-2): willMove, the view out,
    /// removeFromParent (which sends didMove(toParent: nil)).
    private func unembed(_ child: ViewController) {
        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()
    }

    private var shown: ViewController { showingSub1 ? sub1 : sub2 }
    private var other: ViewController { showingSub1 ? sub2 : sub1 }

    /// Chooses how `change` switches, and brings the children to the state that
    /// strategy keeps: both embedded for (a) and (b), only the shown one for (c).
    public func use(_ strategy: SwitchingStrategy) {
        self.strategy = strategy
        // Before the view loads there is nothing to arrange: viewDidLoad applies it.
        guard isViewLoaded else { return }
        switch strategy {
        case .bringToFront, .hide:
            if other.parent !== self { embed(other) }
            shown.view.isHidden = false
            other.view.isHidden = strategy == .hide
            containerView.bringSubviewToFront(shown.view)
        case .swap:
            shown.view.isHidden = false
            if other.parent === self { unembed(other) }
        }
        for (s, b) in strategyButtons {
            b.backgroundColor = s == strategy ? .indexed(4) : nil
            b.foregroundColor = s == strategy ? .indexed(15) : .default
        }
        explanation.text = strategy.summary
    }

    /// S1-4: switches the container view between Sub1 and Sub2 the chosen way.
    public func change() {
        let (from, to) = (shown, other)
        switch strategy {
        case .bringToFront:
            containerView.bringSubviewToFront(to.view)
        case .hide:
            from.view.isHidden = true
            to.view.isHidden = false
        case .swap:
            unembed(from)
            embed(to)
        }
        showingSub1.toggle()
    }
}
