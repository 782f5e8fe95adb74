import TrellisCanvas
import TrellisControllers
import TrellisLog
import TrellisTestSupport
import TrellisViews
import TrellisWire

/// The ordered callback log a scenario asserts on: "Name.callback" strings.
final class Journal {
    private(set) var entries: [String] = []
    func add(_ s: String) { entries.append(s) }
    func clear() { entries.removeAll() }
    /// The entries that start with one of `prefixes` ("Sub." …), in order.
    func only(_ prefixes: String...) -> [String] {
        entries.filter { e in prefixes.contains { e.hasPrefix($0) } }
    }
}

/// A controller that writes every lifecycle callback into a journal, under `name`.
class RecordingController: ViewController {
    let name: String
    let journal: Journal
    init(_ name: String, _ journal: Journal) {
        self.name = name
        self.journal = journal
        super.init(id: ControllerID(name))
        journal.add("\(name).init")
    }
    override func viewDidLoad() { super.viewDidLoad(); journal.add("\(name).viewDidLoad") }
    override func viewWillAppear(_ animated: Bool) { super.viewWillAppear(animated); journal.add("\(name).viewWillAppear") }
    override func viewDidAppear(_ animated: Bool) { super.viewDidAppear(animated); journal.add("\(name).viewDidAppear") }
    override func viewWillDisappear(_ animated: Bool) { super.viewWillDisappear(animated); journal.add("\(name).viewWillDisappear") }
    override func viewDidDisappear(_ animated: Bool) { super.viewDidDisappear(animated); journal.add("\(name).viewDidDisappear") }
    override func willMove(toParent parent: ViewController?) {
        super.willMove(toParent: parent)
        journal.add("\(name).willMove(toParent: \(parent.map { "\($0.id)" } ?? "nil"))")
    }
    override func didMove(toParent parent: ViewController?) {
        super.didMove(toParent: parent)
        journal.add("\(name).didMove(toParent: \(parent.map { "\($0.id)" } ?? "nil"))")
    }
    override func traitCollectionDidChange(_ previous: TraitCollection?) {
        super.traitCollectionDidChange(previous)
        journal.add("\(name).traitCollectionDidChange")
    }
    override func didReceiveMemoryWarning() {
        journal.add("\(name).didReceiveMemoryWarning")
        super.didReceiveMemoryWarning()
    }
}

/// Collects what diagnostics say during `body`.
@MainActor
func diagnostics(during body: () throws -> Void) rethrows -> [String] {
    let said = SaidLines()
    let saved = View.diagnostics
    View.diagnostics = { said.add($0) }
    defer { View.diagnostics = saved }
    try body()
    return said.lines
}

/// A clock tests move by hand, for animations.
final class ManualClock {
    var seconds = 1000.0
    func install(on window: Window) { window.animator.now = { [unowned self] in self.seconds } }
}

/// Records the routing log lines the in-process tree writes.
final class RouteRecorder {
    private(set) var records: [RoutingRecord] = []
    init(_ window: Window) { window.observer = { [unowned self] in self.records.append($0) } }
    func clearing() { records.removeAll() }
    /// "kind src→dst" for each record, in order.
    var lines: [String] { records.map { "\($0.kind) \($0.source)→\($0.target)" } }
}

extension Surface {
    /// The character at a point, as a string (empty for the right half of a wide one).
    func character(at p: Point) -> String {
        guard let c = cell(at: p), c.scalar != Cell.continuation, let u = Unicode.Scalar(c.scalar) else { return "" }
        return String(Character(u))
    }
}
