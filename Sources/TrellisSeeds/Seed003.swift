import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

// Seed 003: the containment API and animated transitions (S3-1 … S3-4).

/// Seed 003's container: one of three cards shown at a time on a stage; `cycle` slides
/// the next one up into its place with `transition(from:to:…)` over 0.25 s (S3-4) — the
/// new card starts below the stage, the old one moves up and away — and cycles
/// First → Second → Third → First. Each card lists the callbacks it heard, so the
/// containment calls of S3-2 and their order (S3-3) can be watched.
public final class Seed003: ViewController {
    public let registry: ControllerRegistry
    /// Made by name in `init`, so any may run in another process.
    public let cards: [ViewController]
    public private(set) var currentIndex = 0
    /// True from the start of a slide to its completion: a second tap waits its turn
    /// rather than starting a transition from a card that is leaving.
    public private(set) var isSliding = false
    /// How long a slide takes, in seconds (the article's 0.25 s).
    public var slideDuration = 0.25

    public let stage = View()
    private let status = Label()

    public nonisolated static let cardNames = ["First", "Second", "Third"]

    public init(registry: ControllerRegistry, id: ControllerID = "Seed003") {
        self.registry = registry
        cards = Self.cardNames.map { name in
            let id = ControllerID(name)!
            return registry.make("Seed003Card", id: id) ?? Seed003Card(id: id)
        }
        super.init(id: id)
        title = "Cycle"
    }

    public var current: ViewController { cards[currentIndex] }

    public override func viewDidLoad() {
        super.viewDidLoad()
        let cycle = Button(title: "▲ cycle")
        cycle.identifier = "Seed003.cycle"
        cycle.addAction { [unowned self] _ in self.cycle() }
        DemoLayout.row([cycle, status], in: view, top: 0, leading: 2, spacing: 2)
        DemoLayout.line(Label("S3-4 the next child slides up from below over 0.25 s"), in: view, top: 1)
        stage.identifier = "stage"
        // The slide starts and ends outside the stage: clipping keeps it on the stage.
        stage.clipsToBounds = true
        stage.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stage)
        LayoutConstraint.activate([
            stage.topAnchor.constraint(equalTo: view.topAnchor, constant: 3),
            stage.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: 2),
            stage.trailingAnchor.constraint(equalTo: view.trailingAnchor, constant: -2),
            stage.bottomAnchor.constraint(equalTo: view.bottomAnchor, constant: -1),
        ])
        // S3-2: addChild (the child's willMove comes with it), the view, didMove.
        addChild(current)
        stage.addSubview(current.view)
        current.didMove(toParent: self)
        updateStatus()
    }

    /// The shown card fills the stage, whatever the size — except while it slides,
    /// when the animation owns the frames.
    public override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        if !isSliding, current.viewIfLoaded?.superview === stage { current.view.frame = stage.bounds }
    }

    /// S3-4: the container's half of the swap around `transition(from:to:…)`:
    /// willMove(toParent: nil) and addChild before, removeFromParent and didMove after.
    public func cycle() {
        guard !isSliding, isViewLoaded else { return }
        let old = current
        let nextIndex = (currentIndex + 1) % cards.count
        let new = cards[nextIndex]
        let bounds = stage.bounds
        isSliding = true
        old.willMove(toParent: nil)
        addChild(new)
        new.view.frame = bounds.offsetBy(dx: 0, dy: bounds.height)
        do {
            try transition(from: old, to: new, duration: slideDuration, animations: {
                new.view.frame = bounds
                old.view.frame = bounds.offsetBy(dx: 0, dy: -bounds.height)
            }, completion: { [weak self] _ in
                guard let self else { return }
                old.removeFromParent()
                new.didMove(toParent: self)
                self.currentIndex = nextIndex
                self.isSliding = false
                self.updateStatus()
                self.view.setNeedsLayout()
            })
        } catch {
            // Cannot happen with both cards ours; if it does, say so and stay usable.
            View.diagnostics("\(id): cycle failed: \(error)")
            new.removeFromParent()
            isSliding = false
        }
    }

    private func updateStatus() {
        status.text = "showing \(current.id) · next: \(cards[(currentIndex + 1) % cards.count].id)"
    }
}

/// One of seed 003's cards: its name, large, on its own colour, and the callbacks it
/// heard most recently — the order S3-3 promises, as this card saw it.
public final class Seed003Card: ViewController {
    /// Every callback heard, oldest first.
    public private(set) var heard: [String] = []
    private let lines = (0..<6).map { _ in Label() }

    public override func viewDidLoad() {
        super.viewDidLoad()
        let colors: [String: CellColor] = ["First": .indexed(1), "Second": .indexed(4), "Third": .indexed(2)]
        view.backgroundColor = colors[id.rawValue] ?? .indexed(6)
        let name = Label(id.rawValue)
        name.attributes = .bold
        DemoLayout.line(name, in: view, top: 0)
        DemoLayout.line(Label("callbacks, latest last:"), in: view, top: 1)
        for (i, line) in lines.enumerated() { DemoLayout.line(line, in: view, top: 2 + i) }
        hear("viewDidLoad")
    }

    public override func viewWillAppear(_ animated: Bool) { super.viewWillAppear(animated); hear("viewWillAppear") }
    public override func viewDidAppear(_ animated: Bool) { super.viewDidAppear(animated); hear("viewDidAppear") }
    public override func viewWillDisappear(_ animated: Bool) { super.viewWillDisappear(animated); hear("viewWillDisappear") }
    public override func viewDidDisappear(_ animated: Bool) { super.viewDidDisappear(animated); hear("viewDidDisappear") }
    public override func willMove(toParent parent: ViewController?) {
        super.willMove(toParent: parent)
        hear("willMove(toParent: \(parent.map(\.id.rawValue) ?? "nil"))")
    }
    public override func didMove(toParent parent: ViewController?) {
        super.didMove(toParent: parent)
        hear("didMove(toParent: \(parent.map(\.id.rawValue) ?? "nil"))")
    }

    private func hear(_ callback: String) {
        heard.append(callback)
        guard isViewLoaded else { return }
        for (line, text) in zip(lines, heard.suffix(lines.count)) { line.text = "  " + text }
    }
}
