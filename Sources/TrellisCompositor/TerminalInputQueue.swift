import TrellisLog
import TrellisTerminal
import TrellisWire

/// Terminal input on its way to the root, one message at a time, in arrival order.
///
/// Each message goes through `Compositor.inject`, the call the control endpoint's
/// `touch` and `key` use: the root hit-tests and routes it down; nothing here knows a
/// view. The next message is sent only when the root has answered the previous one, so
/// a touch's `ended` never overtakes its `began`. While the root is busy, consecutive
/// drags of one pointer collapse into the latest position (a drag is a position, not a
/// history), so a slow tree does not fall ever further behind the mouse.
@MainActor
final class TerminalInputQueue {
    private let inject: @MainActor (Message) async -> Envelope?
    private let log: RoutingLog
    private let onInterrupt: @MainActor () -> Void
    private var waiting: [Message] = []
    private var draining = false

    /// `onInterrupt` runs when Ctrl+C reaches the root and nothing handles it: raw mode
    /// turned the key's signal off, so an unhandled Ctrl+C is the user's way out.
    init(inject: @escaping @MainActor (Message) async -> Envelope?, log: RoutingLog, onInterrupt: @escaping @MainActor () -> Void) {
        self.inject = inject
        self.log = log
        self.onInterrupt = onInterrupt
    }

    /// Messages waiting for the root (for tests).
    var count: Int { waiting.count }

    func enqueue(_ events: [InputEvent]) {
        for event in events {
            switch event.route {
            case .root(let messages):
                for message in messages { append(message) }
            case .ignored:
                break
            case .rejected(let reason):
                log.record(RoutingRecord(
                    host: log.host, at: Compositor.id.rawValue, source: "terminal", target: Compositor.id.rawValue,
                    kind: "input", outcome: .rejected, reason: reason))
            }
        }
        guard !draining, !waiting.isEmpty else { return }
        draining = true
        Task { await drain() }
    }

    private func append(_ message: Message) {
        if case .touch(let next) = message, next.phase == .moved,
           case .touch(let last)? = waiting.last, last.phase == .moved, last.pointer == next.pointer {
            // `waiting` holds only what has not been sent, so replacing its last is safe.
            waiting[waiting.count - 1] = message
        } else {
            waiting.append(message)
        }
    }

    private func drain() async {
        while !waiting.isEmpty {
            let message = waiting.removeFirst()
            let answer = await inject(message)
            if Self.isInterrupt(message) && !Self.handled(answer) { onInterrupt() }
        }
        draining = false
    }

    static func isInterrupt(_ message: Message) -> Bool {
        guard case .key(let key) = message else { return false }
        return key.special == .none && key.text == "c" && key.modifiers == .control
    }

    /// The root handled the message: it acknowledged it, rather than declining or not
    /// being there to answer.
    static func handled(_ answer: Envelope?) -> Bool {
        guard let answer else { return false }
        if case .reply(let reply) = answer.message { return reply.status == .ok }
        return true
    }
}
