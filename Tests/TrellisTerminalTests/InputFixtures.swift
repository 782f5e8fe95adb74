import TrellisTerminal
import TrellisWire

/// A table row: bytes in, events out (all at time 0, settled as at end of input).
struct InputCase: Sendable, CustomStringConvertible {
    let description: String
    let bytes: [UInt8]
    let events: [InputEvent]
    init(_ description: String, _ bytes: [UInt8], _ events: [InputEvent]) {
        self.description = description
        self.bytes = bytes
        self.events = events
    }
    init(_ description: String, _ text: String, _ events: [InputEvent]) {
        self.init(description, Array(text.utf8), events)
    }
}

/// Decodes `bytes` fed at once at time 0, then settles anything pending.
func decode(_ bytes: [UInt8]) -> [InputEvent] {
    var parser = TerminalInputParser()
    return parser.feed(bytes, now: 0) + parser.flush(now: .max)
}

func key(_ special: KeyPress.Special, _ modifiers: KeyModifiers = [], at time: UInt64 = 0) -> InputEvent {
    .key(KeyPress(special: special, modifiers: modifiers, timestamp: time))
}

func text(_ text: String, _ modifiers: KeyModifiers = [], at time: UInt64 = 0) -> InputEvent {
    .key(KeyPress(modifiers: modifiers, text: text, timestamp: time))
}

func touch(_ phase: TouchInput.Phase, pointer: UInt32, x: Int32, y: Int32, _ modifiers: KeyModifiers = []) -> InputEvent {
    .touch(TouchInput(phase: phase, modifiers: modifiers, tapCount: 1, pointer: pointer, x: x, y: y, timestamp: 0))
}

func scroll(dx: Int32 = 0, dy: Int32 = 0, x: Int32, y: Int32, _ modifiers: KeyModifiers = []) -> InputEvent {
    .scroll(ScrollInput(deltaX: dx, deltaY: dy, modifiers: modifiers, x: x, y: y, timestamp: 0))
}

extension InputEvent {
    var isInvalid: Bool {
        if case .invalid = self { return true }
        return false
    }
    var invalidReason: String? {
        if case .invalid(_, let reason) = self { return reason }
        return nil
    }
}

let esc = "\u{1B}"
