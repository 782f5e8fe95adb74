import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

// Seed 000: controllers do controller work, views do layout (S0-1 … S0-4).

/// Seed 000's container: its root view (`CircleLayoutView`) lays the child's view out,
/// the controller only embeds the child (S0-4) and answers touches on the background
/// (S0-3).
public final class Seed000: ViewController {
    public let registry: ControllerRegistry
    /// The circle's controller: made by name, so it may run in another process.
    public private(set) var circle: ViewController?
    /// What the container last heard: shown on screen so a tap's destination is visible.
    public let status = Label("tap the circle, or the background")

    public init(registry: ControllerRegistry, id: ControllerID = "Seed000") {
        self.registry = registry
        super.init(id: id)
        title = "Circle"
    }

    /// S0-1: the container's root is a view class of its own, which does the layout.
    public override func loadView() {
        view = CircleLayoutView()
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        DemoLayout.line(Label("S0-1 the container's view lays the circle out"), in: view, top: 0)
        DemoLayout.line(status, in: view, top: 1)
        // Issue 23: modal presentation, in whatever process this tab runs in.
        let alertButton = Button(title: "Alert…")
        alertButton.identifier = "showAlert"
        alertButton.addAction { [weak self] _ in self?.showAlert() }
        let sheetButton = Button(title: "Sheet…")
        sheetButton.identifier = "showSheet"
        sheetButton.addAction { [weak self] _ in self?.showSheet() }
        DemoLayout.row([alertButton, sheetButton], in: view, top: 2)
        // S0-4: addChild, then the child's root view, then the child's didMove.
        guard let child = registry.make("Seed000Circle", id: "Circle") else { return }
        circle = child
        addChild(child)
        view.addSubview(child.view)
        (view as? CircleLayoutView)?.circle = child.view
        child.didMove(toParent: self)
    }

    /// An alert with a cancel and a destructive action; what was chosen shows in `status`.
    public func showAlert() {
        let alert = AlertController(title: "Reset the count?", message: "The circle's count of taps goes back to zero.", id: "ResetAlert")
        alert.addAction(AlertAction(title: "Cancel", style: .cancel) { [weak self] _ in self?.status.text = "Alert: cancelled" })
        alert.addAction(AlertAction(title: "Reset", style: .destructive) { [weak self] _ in
            (self?.circle as? CircleChild)?.resetCount()
            self?.status.text = "Alert: reset"
        })
        present(alert, animated: true)
    }

    /// A form sheet over the tab, closed by its button (or Escape).
    public func showSheet() {
        let sheet = DemoSheet(id: "Sheet")
        sheet.closed = { [weak self] in self?.status.text = "Sheet: closed" }
        present(sheet, animated: true)
    }

    /// S0-3: only touches that end on the background reach the container.
    public override func touchesEnded(_ touches: Set<Touch>) {
        status.text = "Touches ended on container"
    }
}

/// Lays its `circle` out itself (S0-1): a square of side min(width, height) / 2,
/// centred. A cell is about twice as tall as it is wide, so a square on screen is
/// `side` rows by `2 × side` columns, and `min` compares the width in those terms.
/// Everything else in it is placed by constraints (`super.layoutSubviews`).
public final class CircleLayoutView: View {
    /// The child's root view: a viewport, which the container may size and place.
    public weak var circle: View? { didSet { setNeedsLayout() } }

    public override func layoutSubviews() {
        super.layoutSubviews()
        guard let circle else { return }
        let side = min(bounds.width / 2, bounds.height) / 2
        circle.frame = Rect(x: (bounds.width - 2 * side) / 2, y: (bounds.height - side) / 2, width: 2 * side, height: side)
    }
}

/// The circle's controller. Its root view is replaced in `loadView` (S0-2) and it
/// handles the touches that end on it (S0-3).
public final class CircleChild: ViewController {
    /// How many touches ended on the circle; shown inside it.
    public private(set) var touchesEndedCount = 0
    private let count = Label()

    public override func loadView() {
        let circle = CircleView()
        circle.backgroundColor = .indexed(1)
        circle.focusChanged = { [weak self] focused in self?.count.attributes = focused ? circle.focusedAttributes : [] }
        view = circle
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        // The label's background matches the circle so its text does not cut a hole in it.
        count.backgroundColor = .indexed(1)
        count.foregroundColor = .indexed(15)
        count.alignment = .center
        count.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(count)
        LayoutConstraint.activate([
            count.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            count.centerYAnchor.constraint(equalTo: view.centerYAnchor),
            count.heightAnchor.constraint(equalToConstant: 1),
            count.widthAnchor.constraint(lessThanOrEqualTo: view.widthAnchor, multiplier: 0.7),
        ])
        updateCount()
    }

    /// S0-3: where the article prints "Touches ended on child view controller", the
    /// child counts on screen, inside the circle, where the tap landed.
    public override func touchesEnded(_ touches: Set<Touch>) {
        touchesEndedCount += 1
        updateCount()
    }

    /// Issue 22: from the keyboard, Enter or Space on the focused circle is a tap on it.
    public override func pressesBegan(_ presses: Set<Press>) {
        guard let key = presses.first?.key, key.modifiers.isEmpty, key.special == .enter || (key.special == .none && key.text == " ") else {
            return super.pressesBegan(presses)
        }
        touchesEndedCount += 1
        updateCount()
    }

    /// Back to no taps (the demo's alert).
    public func resetCount() {
        touchesEndedCount = 0
        updateCount()
    }

    private func updateCount() {
        count.text = touchesEndedCount == 0 ? "tap me" : "child ×\(touchesEndedCount)"
    }
}

/// The child's own root view class (S0-2): always drawn as the ellipse its bounds hold,
/// so it is a circle whoever sizes it — the container's layout in one process, the
/// viewport's size in another — without the container reaching into it for a radius.
public final class CircleView: View {
    /// Tab reaches the circle (issue 22), so the keyboard can tap it; focused, its
    /// controller draws its label in the focused style.
    public override var canBecomeFocused: Bool { true }
    var focusChanged: ((Bool) -> Void)?
    public override func focusDidChange() { focusChanged?(isFocused) }

    public override func layoutSubviews() {
        super.layoutSubviews()
        // A radius of half the shorter side is what makes a view an ellipse (docs/VIEWS.md).
        cornerRadius = max(1, (min(bounds.width, bounds.height) + 1) / 2)
    }
}

/// The demo's sheet (issue 23): a form sheet that says what it is, closed by its button or
/// by Escape.
public final class DemoSheet: ViewController {
    public var closed: (() -> Void)?

    public override init(id: ControllerID? = nil) {
        super.init(id: id)
        modalPresentationStyle = .formSheet
        preferredContentSize = Size(width: 44, height: 9)
    }

    public override func loadView() {
        let root = View()
        root.border = .rounded
        root.identifier = "sheet"
        view = root
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        let heading = Label("A form sheet")
        heading.attributes = [.bold]
        DemoLayout.line(heading, in: view, top: 1)
        let body = Label("Shown over the tab, which stays beneath.")
        DemoLayout.line(body, in: view, top: 3)
        let close = Button(title: "Close")
        close.identifier = "closeSheet"
        close.addAction { [weak self] _ in self?.close() }
        DemoLayout.row([close], in: view, top: 5, leading: 2)
    }

    public override var keyCommands: [KeyCommand] {
        [KeyCommand(Key(.escape), title: "Close") { [weak self] in self?.close() }]
    }

    private func close() {
        dismiss(animated: true) { [weak self] in self?.closed?() }
    }
}
