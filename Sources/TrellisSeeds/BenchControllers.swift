import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

// Controllers for `trellis bench latency`, `keys` and `scale`: the smallest trees
// that exercise what those benchmarks time, each level meant to run in its own process.

/// A container with one child, asked of `registry` by class name — which is where the
/// child's placement (this process or another) is decided — and embedded in
/// `viewWillAppear`, as `ParityContainer` does, one cell inside this view's edges.
///
/// The child's frame is set in `viewDidLayoutSubviews` rather than pinned by constraints:
/// pinned, a grandchild in a third process was told a 0×0 size and never drew (seen
/// with Root → Middle → Leaf; to be investigated in the size forwarding of proxies).
public final class TapRelay: ViewController {
    public let registry: ControllerRegistry
    public let childClass: String
    public let childID: ControllerID
    public private(set) var child: ViewController?

    public init(registry: ControllerRegistry, id: ControllerID, childClass: String, childID: ControllerID) {
        self.registry = registry
        self.childClass = childClass
        self.childID = childID
        super.init(id: id)
    }

    public override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        guard child == nil, let c = registry.make(childClass, id: childID) else { return }
        child = c
        addChild(c)
        view.addSubview(c.view)
        c.didMove(toParent: self)
        view.setNeedsLayout()
    }

    public override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let b = view.bounds
        child?.view.frame = Rect(x: 1, y: 1, width: max(0, b.width - 2), height: max(0, b.height - 2))
    }
}

/// A leaf whose content changes on every touch that begins on it: "[taps N]", N the
/// touches so far. A press's feedback (a button's highlight) is what a user waits for.
public final class TapLeaf: ViewController {
    public private(set) var taps = 0
    private let label = Label("[taps 0]")

    public override func viewDidLoad() {
        super.viewDidLoad()
        label.frame = Rect(x: 0, y: 0, width: 20, height: 1)
        view.addSubview(label)
    }

    public override func touchesBegan(_ touches: Set<Touch>) {
        taps += 1
        label.text = "[taps \(taps)]"
    }

    /// The rest of the tap is handled here too, so nothing travels back up the chain.
    public override func touchesEnded(_ touches: Set<Touch>) {}
}

/// The leaf of `trellis bench keys`: one text field on its first row, which a click
/// focuses and typing edits. Empty, it shows its placeholder, which no typed text is.
public final class KeyLeaf: ViewController {
    nonisolated public static let placeholder = "[type here]"
    public let field = TextField(placeholder: KeyLeaf.placeholder)

    public override func viewDidLoad() {
        super.viewDidLoad()
        field.frame = Rect(x: 0, y: 0, width: 30, height: 1)
        view.addSubview(field)
    }
}

/// A container of `ScaleGrid.children` children of class `ScaleTile`, laid out in an
/// 8×8 grid of the screen (the container's own label in the first cell).
public final class ScaleGrid: ViewController {
    nonisolated public static let children = 63
    nonisolated public static let columns = 8
    public let registry: ControllerRegistry

    public init(registry: ControllerRegistry, id: ControllerID) {
        self.registry = registry
        super.init(id: id)
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        let label = Label(ScaleTile.label(0))
        label.frame = Rect(x: 0, y: 0, width: 10, height: 1)
        view.addSubview(label)
    }

    public override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        guard children.isEmpty else { return }
        for i in 1...Self.children {
            guard let c = registry.make("ScaleTile", id: ScaleTile.id(i)) else { return }
            addChild(c)
            view.addSubview(c.view)
            c.didMove(toParent: self)
        }
        view.setNeedsLayout()
    }

    public override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let rows = (Self.children + Self.columns) / Self.columns
        let w = max(1, view.bounds.width / Self.columns), h = max(1, view.bounds.height / rows)
        for (k, c) in children.enumerated() {
            let i = k + 1
            c.view.frame = Rect(x: (i % Self.columns) * w, y: (i / Self.columns) * h, width: w, height: h)
        }
    }
}

/// One tile of `ScaleGrid`: a label saying which tile it is.
public final class ScaleTile: ViewController {
    nonisolated public static func id(_ i: Int) -> ControllerID { ControllerID("Tile\(i)")! }
    /// Unique on the screen: no tile's label is part of another's.
    nonisolated public static func label(_ i: Int) -> String { "[T\(i)]" }

    public override func viewDidLoad() {
        super.viewDidLoad()
        let n = Int(id.rawValue.dropFirst(4)) ?? 0
        let label = Label(Self.label(n))
        label.frame = Rect(x: 0, y: 0, width: 8, height: 1)
        view.addSubview(label)
    }
}
