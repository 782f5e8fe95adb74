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
/// turn every controller of the process that has asked is encoded
/// (`encodeRestorableState(with:)`), and the whole — at most `maxBytes` — goes to
/// whoever saves it: the host sends it to the parent's process, which keeps the latest
/// copy. When the process is restarted the parent hands it back before anything else,
/// and each controller gets its part (`decodeRestorableState(with:)`) just before its
/// view loads, so `viewDidLoad` builds what it shows from it. State that does not
/// decode is reported, and the process starts fresh.
@MainActor
public enum StateRestoration {
    /// The largest state a process may keep: a controller's state, not its data.
    public nonisolated static let maxBytes = 64 * 1024

    /// Request names on the wire: a child's state, up to its parent; and back down.
    public static let saveRequest = "trellis.state.save"
    public static let restoreRequest = "trellis.state.restore"

    /// Sends the process's state to its keeper; installed by the host. Nil: nothing is
    /// kept (the controllers of a process with no parent process to keep it).
    public static var saver: (@MainActor ([UInt8]) -> Void)?

    private static var saving: [ObjectIdentifier: (id: ControllerID, controller: Weak)] = [:]
    private static var scheduled = false
    private static var lastSaved: [UInt8]?
    /// What came back after a restart, by controller, until each view loads.
    private static var pending: [ControllerID: RestorationCoder] = [:]

    struct Weak { weak var controller: ViewController? }

    static func setNeedsSave(_ controller: ViewController) {
        saving[ObjectIdentifier(controller)] = (controller.id, Weak(controller: controller))
        guard !scheduled else { return }
        scheduled = true
        // At the end of the turn, once, however many changes it made — and not in the
        // middle of a call's wait, which does not serve the main queue.
        DispatchQueue.main.async { MainActor.assumeIsolated { save() } }
    }

    /// Encodes every controller that asked and hands the whole to `saver`, if it changed.
    static func save() {
        scheduled = false
        var states: [String: [String: Data]] = [:]
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
        guard bytes.count <= maxBytes else {
            View.diagnostics("State restoration: the state is \(bytes.count) bytes, more than \(maxBytes); not saved.")
            return
        }
        guard bytes != lastSaved else { return }
        lastSaved = bytes
        saver(bytes)
    }

    /// The state a restarted process is handed back. Throws (and keeps nothing) if it is
    /// too large or not what `save` writes.
    public static func received(_ bytes: [UInt8]) throws(RestorationError) {
        guard bytes.count <= maxBytes else { throw .tooLarge(bytes.count) }
        let states: [String: [String: Data]]
        do {
            states = try JSONDecoder().decode([String: [String: Data]].self, from: Data(bytes))
        } catch {
            throw .damaged("\(error)")
        }
        var byID: [ControllerID: RestorationCoder] = [:]
        for (name, values) in states {
            guard let id = ControllerID(name) else { throw .damaged("\(name.debugDescription) is not a controller id") }
            byID[id] = RestorationCoder(values: values)
        }
        pending = byID
        lastSaved = bytes
    }

    /// Before `controller`'s view loads: its part of what came back, if any.
    static func restore(_ controller: ViewController) {
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
    /// end of the turn (`StateRestoration`).
    public func setNeedsStateSave() {
        StateRestoration.setNeedsSave(self)
    }
}
