import TrellisWire

/// Turns the bytes a terminal sends into key, touch, scroll, paste and focus events.
///
/// The parser does no I/O and reads no clock: the caller passes the monotonic time of
/// each read. Output depends only on the bytes and the times, never on how the bytes
/// were split between reads, so feeding byte by byte gives what feeding at once gives.
///
/// A lone Esc is the one thing bytes cannot settle: `ESC [ A` is the Up key, but Esc
/// pressed just before `[` would send the same bytes. The rule is time: a sequence
/// that stalls for `escapeTimeout` (50 ms) is settled as it stands, so a lone `ESC`
/// becomes the Esc key, `ESC [` becomes Alt+[, and anything longer is invalid. The
/// caller must call `flush(now:)` once `deadline` has passed; `feed` does it too.
///
/// Every buffer is bounded: a CSI sequence keeps at most `maxSequenceBytes`, a paste
/// at most `maxPasteBytes`. Garbage becomes `.invalid` events and parsing resumes at
/// the first byte that cannot belong to the broken sequence.
public struct TerminalInputParser: Sendable {
    /// How long an incomplete sequence may wait for its next byte (ns). 50 ms is far
    /// below a human's key repeat, and far above a terminal's gap inside one report.
    public var escapeTimeout: UInt64
    /// How long a bracketed paste may wait for its next byte (ns) before it is
    /// delivered unterminated; longer than `escapeTimeout` because a large paste over a
    /// slow link arrives in pieces.
    public var pasteTimeout: UInt64
    /// The most bytes one paste delivers; the rest is dropped and reported.
    public var maxPasteBytes: Int
    /// The most bytes one CSI sequence keeps; longer ones are skipped to their final byte.
    public static let maxSequenceBytes = 64

    private enum State: Sendable {
        case ground
        /// `ESC` seen.
        case escape
        /// `ESC [` seen; `overflow` counts bytes skipped beyond `maxSequenceBytes`.
        case csi(overflow: Int)
        /// `ESC O` seen.
        case ss3
        /// A multi-byte UTF-8 character begun; `next` is the range its next byte must be in.
        case utf8(remaining: Int, next: ClosedRange<UInt8>, alt: Bool)
        /// Inside a bracketed paste, whose bytes are in `paste`.
        case paste
    }

    private var state = State.ground
    /// The bytes of the unit in progress, from its first byte (ESC included).
    private var pending: [UInt8] = []
    /// The bytes of the last control sequence finished, apart from `pending` so that
    /// each keeps its storage (`finishCSI`).
    private var finished: [UInt8] = []
    /// When the unit in progress began: the timestamp its event carries.
    private var started: UInt64 = 0
    /// When the unit in progress last grew: its deadline counts from here.
    private var lastByte: UInt64 = 0
    /// Kept outside `state` so appending to a large paste does not copy it.
    private var paste: BracketedPaste?

    public init(escapeTimeout: UInt64 = 50_000_000, pasteTimeout: UInt64 = 1_000_000_000, maxPasteBytes: Int = 1 << 20) {
        self.escapeTimeout = escapeTimeout
        self.pasteTimeout = pasteTimeout
        self.maxPasteBytes = max(0, maxPasteBytes)
    }

    /// When (monotonic ns) the unit in progress must be settled by `flush(now:)`, or
    /// `nil` when nothing is pending.
    public var deadline: UInt64? {
        switch state {
        case .ground: nil
        case .paste: lastByte.addingReportingOverflow(pasteTimeout).overflow ? .max : lastByte + pasteTimeout
        default: lastByte.addingReportingOverflow(escapeTimeout).overflow ? .max : lastByte + escapeTimeout
        }
    }

    /// Decodes `bytes`, read at `now`. A pending unit whose deadline has passed is settled
    /// first, so bytes arriving late are not glued onto a stale Esc.
    public mutating func feed(_ bytes: some Sequence<UInt8>, now: UInt64) -> [InputEvent] {
        var events: [InputEvent] = []
        Array(bytes).withUnsafeBufferPointer { feed($0, now: now, into: &events) }
        return events
    }

    /// `feed`, appending to `events`, for bytes in a read buffer: the terminal reader's
    /// path, on which a generic sequence, unspecialized in the reader's module, cost a
    /// witness call per byte, a third of the decoding (issue 20).
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, now: UInt64, into events: inout [InputEvent]) {
        flush(now: now, into: &events)
        for byte in bytes { take(byte, now: now, into: &events) }
    }

    /// Settles the unit in progress if its deadline is at or before `now`; otherwise
    /// returns nothing. `flush(now: .max)` settles whatever is pending, as at end of input.
    public mutating func flush(now: UInt64) -> [InputEvent] {
        var events: [InputEvent] = []
        flush(now: now, into: &events)
        return events
    }

    private mutating func flush(now: UInt64, into events: inout [InputEvent]) {
        guard let deadline, now >= deadline else { return }
        switch state {
        case .ground:
            break
        case .escape:
            events.append(.key(KeyPress(special: .escape, timestamp: started)))
        case .csi, .ss3:
            if let alt = lonePrefix() {
                events.append(.key(alt))
            } else {
                events.append(.invalid(bytes: pending, reason: "control sequence incomplete after \(milliseconds(escapeTimeout)) ms"))
            }
        case .utf8:
            events.append(.invalid(bytes: pending, reason: "UTF-8 character incomplete after \(milliseconds(escapeTimeout)) ms"))
        case .paste:
            events += paste?.finish(closed: false) ?? []
            paste = nil
        }
        reset()
    }

    // MARK: - The state machine

    private mutating func take(_ byte: UInt8, now: UInt64, into events: inout [InputEvent]) {
        switch state {
        case .ground:
            ground(byte, now: now, into: &events)
        case .escape:
            escape(byte, now: now, into: &events)
        case .csi(let overflow):
            csi(byte, overflow: overflow, now: now, into: &events)
        case .ss3:
            if (0x20...0x7E).contains(byte) {
                pending.append(byte)
                do throws(DecodeFailure) {
                    events.append(.key(try KeyDecoding.ss3(byte, at: started)))
                } catch {
                    events.append(.invalid(bytes: pending, reason: error.reason))
                }
                reset()
            } else {
                abandon(byte, now: now, into: &events)
            }
        case .utf8(let remaining, let next, let alt):
            guard next.contains(byte) else {
                events.append(.invalid(bytes: pending, reason: "UTF-8 character cut short by byte \(byte.hex)"))
                reset()
                ground(byte, now: now, into: &events)
                return
            }
            pending.append(byte)
            lastByte = now
            if remaining > 1 {
                state = .utf8(remaining: remaining - 1, next: 0x80...0xBF, alt: alt)
                return
            }
            let text = String(decoding: pending.drop(while: { $0 == 0x1B }), as: UTF8.self)
            events.append(.key(KeyPress(modifiers: alt ? [.alt] : [], text: text, timestamp: started)))
            reset()
        case .paste:
            lastByte = now
            if paste?.take(byte) == true {
                events += paste?.finish(closed: true) ?? []
                paste = nil
                reset()
            }
        }
    }

    private mutating func ground(_ byte: UInt8, now: UInt64, into events: inout [InputEvent]) {
        switch byte {
        case 0x1B:
            begin(.escape, with: byte, now: now)
        case 0x00...0x1F, 0x7F:
            events.append(.key(KeyDecoding.control(byte, alt: false, at: now)))
        case 0x20...0x7E:
            events.append(.key(KeyPress(text: String(Character(Unicode.Scalar(byte))), timestamp: now)))
        default:
            if let lead = Self.utf8Lead(byte) {
                begin(.utf8(remaining: lead.remaining, next: lead.next, alt: false), with: byte, now: now)
            } else if byte < 0xC0 {
                events.append(.invalid(bytes: [byte], reason: "UTF-8 continuation byte \(byte.hex) without a lead byte"))
            } else {
                events.append(.invalid(bytes: [byte], reason: "byte \(byte.hex) never occurs in UTF-8"))
            }
        }
    }

    private mutating func escape(_ byte: UInt8, now: UInt64, into events: inout [InputEvent]) {
        switch byte {
        case UInt8(ascii: "["):
            extend(.csi(overflow: 0), with: byte, now: now)
        case UInt8(ascii: "O"):
            extend(.ss3, with: byte, now: now)
        case 0x1B:
            // Alt+Esc is not worth the ambiguity: the first Esc is the key, the second starts afresh.
            events.append(.key(KeyPress(special: .escape, timestamp: started)))
            begin(.escape, with: byte, now: now)
        case 0x20...0x7E:
            events.append(.key(KeyPress(modifiers: .alt, text: String(Character(Unicode.Scalar(byte))), timestamp: started)))
            reset()
        case 0x00...0x1F, 0x7F:
            events.append(.key(KeyDecoding.control(byte, alt: true, at: started)))
            reset()
        default:
            if let lead = Self.utf8Lead(byte) {
                extend(.utf8(remaining: lead.remaining, next: lead.next, alt: true), with: byte, now: now)
            } else {
                events.append(.key(KeyPress(special: .escape, timestamp: started)))
                reset()
                ground(byte, now: now, into: &events)
            }
        }
    }

    private mutating func csi(_ byte: UInt8, overflow: Int, now: UInt64, into events: inout [InputEvent]) {
        switch byte {
        case 0x20...0x3F:
            lastByte = now
            if overflow > 0 || pending.count >= Self.maxSequenceBytes {
                state = .csi(overflow: overflow + 1)
            } else {
                pending.append(byte)
            }
        case 0x40...0x7E:
            if overflow > 0 {
                events.append(.invalid(
                    bytes: pending,
                    reason: "control sequence of \(pending.count + overflow + 1) bytes exceeds \(Self.maxSequenceBytes); skipped to its final byte \(byte.hex)"
                ))
                reset()
                return
            }
            pending.append(byte)
            finishCSI(final: byte, into: &events)
        default:
            abandon(byte, now: now, into: &events)
        }
    }

    private mutating func finishCSI(final: UInt8, into events: inout [InputEvent]) {
        let time = started
        // The sequence moves to `finished` and `pending` takes the storage of the one
        // before: clearing `pending` while the sequence shared it would copy it.
        swap(&pending, &finished)
        reset()
        let bytes = finished
        let body = bytes[2..<(bytes.count - 1)]
        do throws(DecodeFailure) {
            if body.isEmpty && final == UInt8(ascii: "M") {
                throw DecodeFailure("X10 mouse report (CSI M without parameters) is not supported; the compositor enables SGR mode 1006")
            }
            let sequence = try ControlSequence(body: body, final: final)
            let plain = sequence.marker == nil && sequence.intermediates.isEmpty
            switch (sequence.marker, final) {
            case (UInt8(ascii: "<"), UInt8(ascii: "M")), (UInt8(ascii: "<"), UInt8(ascii: "m")):
                if let event = try MouseDecoding.sgr(sequence, at: time) { events.append(event) }
            case (nil, UInt8(ascii: "~")) where plain && sequence.parameters == [200]:
                paste = BracketedPaste(limit: maxPasteBytes)
                state = .paste
                started = time
                lastByte = time
            case (nil, UInt8(ascii: "~")) where plain && sequence.parameters == [201]:
                throw DecodeFailure("paste end marker without a paste start")
            case (UInt8(ascii: "?"), UInt8(ascii: "u")):
                guard sequence.intermediates.isEmpty, sequence.parameters.count == 1, let flags = sequence.parameters[0],
                      sequence[subparameters: 0].isEmpty
                else { throw DecodeFailure("keyboard flags answer (CSI ? u) needs one number") }
                events.append(.answer(.keyboardFlags(flags)))
            case (UInt8(ascii: "?"), UInt8(ascii: "c")) where sequence.intermediates.isEmpty:
                events.append(.answer(.deviceAttributes))
            case (nil, UInt8(ascii: "I")) where plain && sequence.parameters.isEmpty:
                events.append(.focus(true))
            case (nil, UInt8(ascii: "O")) where plain && sequence.parameters.isEmpty:
                events.append(.focus(false))
            default:
                events.append(.key(try KeyDecoding.csi(sequence, at: time)))
            }
        } catch {
            events.append(.invalid(bytes: bytes, reason: error.reason))
        }
    }

    /// A byte that cannot continue the sequence in progress: settle the sequence as it
    /// stands, then let the byte start over, so the garbage costs no valid input.
    private mutating func abandon(_ byte: UInt8, now: UInt64, into events: inout [InputEvent]) {
        if let alt = lonePrefix() {
            events.append(.key(alt))
        } else {
            events.append(.invalid(bytes: pending, reason: "control sequence interrupted by byte \(byte.hex)"))
        }
        reset()
        ground(byte, now: now, into: &events)
    }

    /// `ESC [` or `ESC O` with nothing after: Alt+[ or Alt+O.
    private func lonePrefix() -> KeyPress? {
        guard pending.count == 2 else { return nil }
        switch state {
        case .csi(overflow: 0), .ss3: break
        default: return nil
        }
        return KeyPress(modifiers: .alt, text: String(Character(Unicode.Scalar(pending[1]))), timestamp: started)
    }

    private mutating func begin(_ next: State, with byte: UInt8, now: UInt64) {
        state = next
        pending.removeAll(keepingCapacity: true)
        pending.append(byte)
        started = now
        lastByte = now
    }

    private mutating func extend(_ next: State, with byte: UInt8, now: UInt64) {
        state = next
        pending.append(byte)
        lastByte = now
    }

    private mutating func reset() {
        state = .ground
        pending.removeAll(keepingCapacity: true)
    }

    private func milliseconds(_ nanoseconds: UInt64) -> UInt64 { nanoseconds / 1_000_000 }

    /// The shape of a UTF-8 character from its lead byte, with the range its second
    /// byte must fall in, which is what rules out overlong forms, surrogates and
    /// scalars above U+10FFFF.
    private static func utf8Lead(_ byte: UInt8) -> (remaining: Int, next: ClosedRange<UInt8>)? {
        switch byte {
        case 0xC2...0xDF: (1, 0x80...0xBF)
        case 0xE0: (2, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (2, 0x80...0xBF)
        case 0xED: (2, 0x80...0x9F)
        case 0xF0: (3, 0x90...0xBF)
        case 0xF1...0xF3: (3, 0x80...0xBF)
        case 0xF4: (3, 0x80...0x8F)
        default: nil
        }
    }
}
