import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

// Seed 002: creation order with containers, and views loaded from files (S2-1 … S2-5).

/// The article's ContainerViewController: its children are made in `init` (their views
/// not loaded), the first is embedded in `viewWillAppear` (S2-2), and a request from the
/// shown child swaps it for the other (S2-4).
public final class Seed002: ViewController {
    public let registry: ControllerRegistry
    /// Made by name, so either may run in another process (S2-5 then holds by
    /// construction: the container has only the child's root view, a viewport).
    public let sub: ViewController
    public let other: ViewController
    /// The child embedded now; nil before the first `viewWillAppear`.
    public private(set) var shown: ViewController?

    public init(registry: ControllerRegistry, id: ControllerID = "Seed002") {
        self.registry = registry
        sub = registry.make("Seed002Sub", id: "Sub") ?? Seed002Sub(id: "Sub")
        other = registry.make("Seed002Other", id: "Other") ?? Seed002Other(id: "Other")
        super.init(id: id)
        title = "Container"
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        DemoLayout.line(Label("S2-1 Container ▸ Sub ▸ CustomButton ▸ ExtendLabel ▸ Label"), in: view, top: 0)
        DemoLayout.line(Label("the button asks the container to swap the child (S2-4)"), in: view, top: 1)
    }

    /// S2-2: the child is added here, as the article does — its view loads on first
    /// access, inside `embed`. Later appearances (a tab selected again) find it there.
    public override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        if shown == nil { embed(sub) }
    }

    /// Answers the child's `changeView` request (S2-4): the child knows only that
    /// someone above it can swap it.
    public override func handle(_ request: Request, from child: ViewController) -> Reply? {
        guard request.name == Seed002.changeView else { return nil }
        changeView()
        return Reply(status: .ok)
    }

    /// The request a seed-002 child sends to be swapped.
    public static let changeView = "changeView"

    /// S2-4: willMove(toParent: nil), remove its view, removeFromParent, then the other.
    public func changeView() {
        guard let old = shown else { return }
        old.willMove(toParent: nil)
        old.view.removeFromSuperview()
        old.removeFromParent()
        embed(old === sub ? other : sub)
    }

    /// addChild, the root view below the two lines of text, didMove(toParent:) — after
    /// which the child's members are usable (S2-3).
    private func embed(_ child: ViewController) {
        addChild(child)
        view.addSubview(child.view)
        child.view.translatesAutoresizingMaskIntoConstraints = false
        LayoutConstraint.activate([
            child.view.topAnchor.constraint(equalTo: view.topAnchor, constant: 2),
            child.view.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: 1),
            child.view.trailingAnchor.constraint(equalTo: view.trailingAnchor, constant: -1),
            child.view.bottomAnchor.constraint(equalTo: view.bottomAnchor, constant: -1),
        ])
        child.didMove(toParent: self)
        shown = child
    }
}

/// The article's SubViewController: its view holds a CustomButton loaded from a view
/// file (which includes ExtendLabel's file), and it lists the order in which those
/// views and it were created — what S2-2 is about, as this process saw it.
public final class Seed002Sub: ViewController {
    /// The file-loaded button; nil only if its file failed to load (the error is shown).
    public private(set) var customButton: CustomButton?
    /// The creation order seen while the view loaded, ending with `Sub.viewDidLoad`.
    public private(set) var creationOrder: [String] = []

    public override func loadView() {
        let root = View()
        root.border = .single
        do {
            let (loaded, order) = try CreationTrace.collecting { try Seed002ViewFiles.load(named: "CustomButton") }
            creationOrder = order
            customButton = loaded as? CustomButton
            loaded.translatesAutoresizingMaskIntoConstraints = false
            root.addSubview(loaded)
            LayoutConstraint.activate([
                loaded.topAnchor.constraint(equalTo: root.topAnchor, constant: 1),
                loaded.centerXAnchor.constraint(equalTo: root.centerXAnchor),
                loaded.widthAnchor.constraint(equalToConstant: Double(loaded.frame.width)),
                loaded.heightAnchor.constraint(equalToConstant: Double(loaded.frame.height)),
            ])
        } catch {
            // A broken view file is a bug to see at once, not an empty screen.
            DemoLayout.line(Label("view file: \(error)"), in: root, top: 1)
        }
        view = root
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        creationOrder.append("Sub.viewDidLoad")
        // S2-4: the button inside the child asks the parent, by delegation.
        customButton?.addAction { [unowned self] _ in self.sendRequest(Seed002.changeView) }
        DemoLayout.line(Label("created, in order (S2-2):"), in: view, top: 5)
        for (i, entry) in creationOrder.enumerated() {
            DemoLayout.line(Label("  \(i + 1). \(entry)"), in: view, top: 6 + i)
        }
    }
}

/// The child seed 002 swaps in (S2-4); its button swaps back the same way.
public final class Seed002Other: ViewController {
    public override func viewDidLoad() {
        super.viewDidLoad()
        view.border = .single
        view.backgroundColor = .indexed(5)
        DemoLayout.line(Label("Other: swapped in by the container (S2-4)"), in: view, top: 1)
        let back = Button(title: "swap back")
        back.identifier = "Other.swapBack"
        back.addAction { [unowned self] _ in self.sendRequest(Seed002.changeView) }
        DemoLayout.row([back], in: view, top: 3, leading: 2)
    }
}
