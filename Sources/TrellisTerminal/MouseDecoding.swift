import TrellisWire

/// SGR (mode 1006) mouse reports, `CSI < button ; x ; y M` (press, drag, wheel) or
/// `… m` (release), as touches and scrolls.
///
/// The pointer of a touch is the xterm button number less one: 0 left, 1 middle,
/// 2 right, 7–10 the extra buttons 8–11; so a drag and its release carry the pointer
/// that began it. Terminals do not count clicks, so `tapCount` is always 1.
enum MouseDecoding {
    /// The event for one report, or `nil` for one that means nothing to a view: motion
    /// with no button held (any-event tracking) and wheel "releases".
    static func sgr(_ sequence: ControlSequence, at time: UInt64) throws(DecodeFailure) -> InputEvent? {
        let released = sequence.final == UInt8(ascii: "m")
        let fields = sequence.parameters
        guard fields.count == 3, let code = fields[0], let column = fields[1], let row = fields[2] else {
            let given = fields.count(where: { $0 != nil })
            throw DecodeFailure("mouse report needs 3 fields (button;x;y), got \(given) of \(fields.count)")
        }
        guard sequence.intermediates.isEmpty else { throw DecodeFailure("mouse report with intermediate bytes") }
        guard code <= 255 else { throw DecodeFailure("mouse button code \(code) above 255") }
        guard column >= 1, row >= 1 else {
            throw DecodeFailure("mouse position \(column);\(row) is not 1-based")
        }
        let x = Int32(column - 1)
        let y = Int32(row - 1)
        var modifiers: KeyModifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.control) }
        let motion = code & 32 != 0
        let low = code & 3

        switch code & (64 | 128) {
        case 64:
            if released { return nil }
            let (dx, dy): (Int32, Int32) = switch low {
            case 0: (0, -1)
            case 1: (0, 1)
            case 2: (-1, 0)
            default: (1, 0)
            }
            return .scroll(ScrollInput(deltaX: dx, deltaY: dy, modifiers: modifiers, x: x, y: y, timestamp: time))
        case 0:
            if low == 3 {
                if motion && !released { return nil }
                throw DecodeFailure("mouse button code \(code) names no button")
            }
            return touch(pointer: UInt32(low), released: released, motion: motion, modifiers, x, y, time)
        case 128:
            return touch(pointer: UInt32(7 + low), released: released, motion: motion, modifiers, x, y, time)
        default:
            throw DecodeFailure("mouse button code \(code) sets both the wheel and extra-button bits")
        }
    }

    private static func touch(
        pointer: UInt32, released: Bool, motion: Bool, _ modifiers: KeyModifiers, _ x: Int32, _ y: Int32, _ time: UInt64
    ) -> InputEvent {
        let phase: TouchInput.Phase = released ? .ended : motion ? .moved : .began
        return .touch(TouchInput(phase: phase, modifiers: modifiers, tapCount: 1, pointer: pointer, x: x, y: y, timestamp: time))
    }
}
