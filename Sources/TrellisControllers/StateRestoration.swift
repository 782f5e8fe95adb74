import Foundation
import TrellisViews
import TrellisWire

/// What a controller keeps across a restart of its process: values by key, each
/// encoded as JSON (UIKit's `NSCoder` in `encodeRestorableState(with:)` is the model).
public final class RestorationCoder {
    var values: [String: Data]

    public init() { values = [:] }
    init(values: [String: Data]) { self.values = values }

    public func encode<T: Encodable>(_ value: T, forKey key: String) {
        values[key] = try? JSONEncoder().encode(value)
    }

    /// The value saved under `key`, or nil if none was or it is not a `T`.
    public func decode<T: Decodable>(_ type: T.Type, forKey key: String) -> T? {
        values[key].flatMap { try? JSONDecoder().decode(T.self, from: $0) }
    }
}

/// State restoration across a restart of a controller's process (docs/LIFECYCLE.md,
/// "State restoration").
///
/// A controller says its state changed with `setNeedsStateSave()`. At the end of that
/// turn every controller of its window that has asked is encoded
/// (`encodeRestorableState(with:)`), and the whole — at most `maxBytes` — goes to
/// whoever saves it: the host sends it to the parent's process, which keeps the latest
/// copy. When the process is restarted the parent hands it back before anything else,
/// and each controller gets its part (`decodeRestorableState(with:)`) just before its
/// view loads, so `viewDidLoad` builds what it shows from it. State that does not
/// decode is reported, and the process starts fresh.
///
/// It belongs to whoever owns the trees, not to the process as a global: a window has
/// one (`Window.stateRestoration`), and the windows of one host's loop share it — a
/// controller hosted apart is part of its process's state — since it is touched only on
/// their loop, which ends the turn that saves it. A tree on another loop of the process
/// (an actor child's) has its own, told over its link and kept here as a part
/// (`keep(part:of:)`), handed back what comes after a restart (`onReceived`).
public final class StateRestoration {
    /// The largest state a process may keep: a controller's state, not its data.
    public static let maxBytes = 64 * 1024

    /// Request names on the wire: a child's state, up to its parent; and back down.
    public static let saveRequest = "trellis.state.save"
    public static let restoreRequest = "trellis.state.restore"

    /// Sends the window's state to its keeper; installed by the host. Nil: nothing is
    /// kept (the controllers of a process with no parent process to keep it).
    public var saver: (([UInt8]) -> Void)?

    private let loop: TreeLoop
    private var saving: [ObjectIdentifier: (id: ControllerID, controller: Weak)] = [:]
    private var scheduled = false
    private var lastSaved: [UInt8]?
    /// What came back after a restart, by controller, until each view loads.
    private var pending: [ControllerID: RestorationCoder] = [:]
    /// The latest state of each tree of the process on another loop (an actor child's,
    /// told over its link, `keep(part:of:)`), saved with this one's as one whole.
    private var parts: [ControllerID: [String: [String: Data]]] = [:]
    /// Told what came back after a restart, once it decoded: a host hands it on to the
    /// trees of its process on other loops, each of which takes its own part.
    public var onReceived: (([UInt8]) -> Void)?

    struct Weak { weak var controller: ViewController? }

    /// `loop` runs the save at the end of the turn: the loop of the trees that share it.
    public init(loop: TreeLoop = MainActorLoop.shared) {
        self.loop = loop
    }

    func setNeedsSave(_ controller: ViewController) {
        saving[ObjectIdentifier(controller)] = (controller.id, Weak(controller: controller))
        scheduleSave()
    }

    /// The state `owner`'s tree, on another loop of this process, saved (what `save` hands
    /// its saver there), kept as part of this one's: saved with it at the end of the turn.
    /// Throws (and keeps nothing new) if it is too large or not what `save` writes.
    public func keep(part bytes: [UInt8], of owner: ControllerID) throws(RestorationError) {
        parts[owner] = try Self.decode(bytes)
        scheduleSave()
    }

    private func scheduleSave() {
        guard !scheduled else { return }
        scheduled = true
        // At the end of the turn, once, however many changes it made — and not in the
        // middle of a call's wait, which does not serve the loop's turns.
        loop.execute { [weak self] in self?.save() }
    }

    /// Encodes every controller that asked and hands the whole to `saver`, if it changed.
    func save() {
        scheduled = false
        var states: [String: [String: Data]] = [:]
        for part in parts.values { states.merge(part) { _, newer in newer } }
        for (key, entry) in saving {
            guard let controller = entry.controller.controller else {
                saving[key] = nil
                continue
            }
            let coder = RestorationCoder()
            controller.encodeRestorableState(with: coder)
            states[entry.id.rawValue] = coder.values
        }
        guard let saver, let bytes = try? JSONEncoder().encode(states).map({ $0 }) else { return }
        guard bytes.count <= Self.maxBytes else {
            View.diagnostics("State restoration: the state is \(bytes.count) bytes, more than \(Self.maxBytes); not saved.")
            return
        }
        guard bytes != lastSaved else { return }
        lastSaved = bytes
        saver(bytes)
    }

    /// The state a restarted process is handed back. Throws (and keeps nothing) if it is
    /// too large or not what `save` writes.
    public func received(_ bytes: [UInt8]) throws(RestorationError) {
        let states = try Self.decode(bytes)
        var byID: [ControllerID: RestorationCoder] = [:]
        for (name, values) in states {
            guard let id = ControllerID(name) else { throw .damaged("\(name.debugDescription) is not a controller id") }
            byID[id] = RestorationCoder(values: values)
        }
        pending = byID
        lastSaved = bytes
        onReceived?(bytes)
    }

    private static func decode(_ bytes: [UInt8]) throws(RestorationError) -> [String: [String: Data]] {
        guard bytes.count <= maxBytes else { throw .tooLarge(bytes.count) }
        do {
            return try JSONDecoder().decode([String: [String: Data]].self, from: Data(bytes))
        } catch {
            throw .damaged("\(error)")
        }
    }

    /// Before `controller`'s view loads: its part of what came back, if any.
    func restore(_ controller: ViewController) {
        guard !pending.isEmpty, let coder = pending.removeValue(forKey: controller.id) else { return }
        controller.decodeRestorableState(with: coder)
    }
}

public enum RestorationError: Error, Equatable, CustomStringConvertible {
    case tooLarge(Int)
    case damaged(String)

    public var description: String {
        switch self {
        case .tooLarge(let n): "state of \(n) bytes is more than \(StateRestoration.maxBytes)"
        case .damaged(let why): "state does not decode: \(why)"
        }
    }
}

extension ViewController {
    /// Says this controller's restorable state changed: it is encoded and saved at the
    /// end of the turn (`StateRestoration`) — that of the window it is shown in, or was
    /// last: a controller in none has no one to keep its state, which is reported.
    public func setNeedsStateSave() {
        guard let window = loggingWindow ?? deliveringWindow else {
            return View.diagnostics("State restoration: \(id) is in no window; its state is not saved.")
        }
        window.stateRestoration.setNeedsSave(self)
    }
}
