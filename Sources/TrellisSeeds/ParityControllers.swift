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
@MainActor
public final class ParityContainer: ViewController {
    public let registry: ControllerRegistry
    public private(set) var child: ViewController?
    public private(set) var requestsAnswered: [String] = []

    public init(registry: ControllerRegistry, id: ControllerID = "Container") {
        self.registry = registry
        super.init(id: id)
    }

    public override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        guard child == nil, let c = registry.make("ParityChild", id: "Child") else { return }
        child = c
        addChild(c)
        view.addSubview(c.view)
        c.view.pinEdges(to: view, insets: 1)
        c.didMove(toParent: self)
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
@MainActor
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

@MainActor
public final class ParityLeaf: ViewController {
    public override func viewDidLoad() {
        super.viewDidLoad()
        let label = Label("leaf")
        label.frame = Rect(x: 0, y: 0, width: 4, height: 1)
        view.addSubview(label)
    }
}
