import TrellisApp

/// The root container: a header, and two children side by side. It asks `registry`
/// for them by class name, so where each one runs — here, or in a process of its own —
/// is the scene's to say, not this code's.
final class DashboardController: ViewController {
    private let registry: ControllerRegistry
    private let header = Label("ops dashboard")
    private var panes: [ViewController] = []

    init(registry: ControllerRegistry, id: ControllerID) {
        self.registry = registry
        super.init(id: id)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        header.attributes = [.bold]
        view.addSubview(header)
        for (name, id) in [("Counter", "Counter"), ("EventLog", "Log")] {
            guard let child = registry.make(name, id: ControllerID(id)) else { continue }
            // UIKit's order: addChild, the child's view into ours, then didMove.
            addChild(child)
            view.addSubview(child.view)
            child.didMove(toParent: self)
            panes.append(child)
        }
    }

    /// The header on the first row; the panes share the rest, left and right.
    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        let b = view.bounds
        header.frame = Rect(x: 1, y: 0, width: max(0, b.width - 2), height: 1)
        let width = b.width / max(1, panes.count)
        for (i, pane) in panes.enumerated() {
            pane.view.frame = Rect(x: i * width, y: 1, width: width, height: max(0, b.height - 1))
        }
    }
}
