import TrellisLog
import TrellisTerminal
import TrellisWire

/// Terminal input on its way to the root, in arrival order, pipelined.
///
/// Each message goes out the moment it is read, through `Compositor.send` — the path the
/// control endpoint's `touch` and `key` take: the root hit-tests and routes it down;
/// nothing here knows a view. Nothing waits for the root's answer before sending the
/// next: the link keeps their order, and so does the root, which handles what one peer
/// sent in the order it was sent (docs/TRANSPORT.md), so a click read in one piece costs
/// one trip through the tree, not two. Drags are the exception: while one move of a
/// pointer is unanswered, later moves of it collapse into the latest position (a drag
/// is a position, not a history), so a slow tree does not fall ever further behind the
/// mouse; anything else of that pointer sends the held move first.
///
/// Package-visible for `trellis bench render`, which times a click's decoding and queueing.
@MainActor
package final class TerminalInputQueue {
    package typealias Send = @MainActor (Message, _ answered: @escaping @MainActor @Sendable (Envelope?) -> Void) -> Void
    private let send: Send
    private let log: RoutingLog
    private let onInterrupt: @MainActor () -> Void
    /// Per pointer: whether a move of it is unanswered, and the latest move held meanwhile.
    private var moving: [UInt32: (inFlight: Bool, held: Message?)] = [:]

    /// `onInterrupt` runs when Ctrl+C reaches the root and nothing handles it: raw mode
    /// turned the key's signal off, so an unhandled Ctrl+C is the user's way out.
    package init(send: @escaping Send, log: RoutingLog, onInterrupt: @escaping @MainActor () -> Void) {
        self.send = send
        self.log = log
        self.onInterrupt = onInterrupt
    }

    /// Moves held back behind an unanswered one (for tests).
    var count: Int { moving.values.filter { $0.held != nil }.count }

    package func enqueue(_ events: [InputEvent]) {
        for event in events {
            switch event.route {
            case .root(let messages):
                for message in messages { submit(message) }
            case .ignored:
                break
            case .rejected(let reason):
                log.record(RoutingRecord(
                    host: log.host, at: Compositor.id.rawValue, source: "terminal", target: Compositor.id.rawValue,
                    kind: "input", outcome: .rejected, reason: reason))
            }
        }
    }

    private func submit(_ message: Message) {
        guard case .touch(let touch) = message else { return transmit(message) }
        if touch.phase == .moved, moving[touch.pointer]?.inFlight == true {
            moving[touch.pointer]?.held = message
            return
        }
        // What was held came before this, and goes first.
        if let held = moving[touch.pointer]?.held {
            moving[touch.pointer]?.held = nil
            transmit(held)
        }
        transmit(message)
    }

    private func transmit(_ message: Message) {
        var move: UInt32?
        if case .touch(let t) = message, t.phase == .moved {
            move = t.pointer
            moving[t.pointer, default: (false, nil)].inFlight = true
        }
        send(message) { [weak self] answer in
            guard let self else { return }
            if Self.isInterrupt(message) && !Self.handled(answer) { self.onInterrupt() }
            if case .key = message, let why = Self.unhandledReason(answer) { self.logUnhandled(message, why) }
            guard let pointer = move else { return }
            self.moving[pointer]?.inFlight = false
            if let held = self.moving[pointer]?.held {
                self.moving[pointer]?.held = nil
                self.transmit(held)
            }
        }
    }

    /// The reason the root gave for a key nothing took (a declined reply's payload).
    static func unhandledReason(_ answer: Envelope?) -> String? {
        guard case .reply(let reply)? = answer?.message, reply.status == .declined else { return nil }
        return String(decoding: reply.payload, as: UTF8.self)
    }

    /// A typed key that did nothing is a log line with the root's reason — `unhandled:
    /// no responder took q (release) (…)` — so `trellis logs` says why (docs/TERMINAL.md).
    private func logUnhandled(_ message: Message, _ why: String) {
        log.record(RoutingRecord(
            host: log.host, at: Compositor.id.rawValue, source: Compositor.id.rawValue, target: "terminal",
            kind: message.kind.name, outcome: .dropped, reason: why))
    }

    static func isInterrupt(_ message: Message) -> Bool {
        // The press, never its release: a Ctrl+C let go is not a second request to quit.
        guard case .key(let key) = message, key.phase == .began else { return false }
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
