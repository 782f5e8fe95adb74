import TrellisWire

/// Tables from terminal key encodings (C0 controls, xterm CSI and SS3 keys, CSI u) to
/// the wire protocol's `KeyPress`.
///
/// Text keys carry their case in the text and never `.shift`: a terminal sends `A`, not
/// Shift+a. Control letters are reported lower-case with `.control`.
enum KeyDecoding {
    /// A C0 control byte or DEL as the key that sends it. Ctrl+H and Ctrl+I are
    /// indistinguishable from Backspace and Tab on the wire, so they are reported as those.
    static func control(_ byte: UInt8, alt: Bool, at time: UInt64) -> KeyPress {
        let extra: KeyModifiers = alt ? [.alt] : []
        switch byte {
        case 0x0D: return KeyPress(special: .enter, modifiers: extra, timestamp: time)
        case 0x09: return KeyPress(special: .tab, modifiers: extra, timestamp: time)
        case 0x08, 0x7F: return KeyPress(special: .backspace, modifiers: extra, timestamp: time)
        case 0x1B: return KeyPress(special: .escape, modifiers: extra, timestamp: time)
        case 0x00: return KeyPress(modifiers: extra.union(.control), text: " ", timestamp: time)
        case 0x01...0x1A:
            return KeyPress(modifiers: extra.union(.control), text: text(byte + 0x60), timestamp: time)
        default:
            // 0x1c–0x1f: Ctrl+\ ] ^ _
            return KeyPress(modifiers: extra.union(.control), text: text(byte + 0x40), timestamp: time)
        }
    }

    /// A key from a CSI sequence other than mouse, paste and focus reports and the
    /// terminal's answers: xterm's forms, and the kitty keyboard protocol's, which add an
    /// event type to the modifiers (`CSI 1;5:3 A`: Ctrl+Up let go) and alternate keys and
    /// text to `CSI u` (docs/TERMINAL.md "Input").
    static func csi(_ sequence: ControlSequence, at time: UInt64) throws(DecodeFailure) -> KeyPress {
        if let marker = sequence.marker {
            throw DecodeFailure("no key uses private marker \(marker.hex)")
        }
        if !sequence.intermediates.isEmpty {
            throw DecodeFailure("no key uses intermediate bytes")
        }
        let count = sequence.parameters.count
        if sequence.final != UInt8(ascii: "u"), !sequence[subparameters: 0].isEmpty {
            throw DecodeFailure("a key number has no sub-parameters")
        }
        let (modifiers, phase) = try modifiersAndPhase(sequence)
        var key: KeyPress
        switch sequence.final {
        case UInt8(ascii: "~"):
            guard let number = sequence[parameter: 0] else { throw DecodeFailure("CSI ~ without a key number") }
            if number == 27 {
                // xterm's modifyOtherKeys: CSI 27 ; modifiers ; code ~
                guard count == 3, let code = sequence[parameter: 2], sequence[subparameters: 2].isEmpty else {
                    throw DecodeFailure("CSI 27 ~ needs a modifier and a character code")
                }
                key = try codepoint(code, modifiers: modifiers, at: time)
            } else {
                guard count <= 2 else { throw DecodeFailure("CSI \(number) ~ has \(count) parameters, at most 2 expected") }
                guard let special = tildeKeys[number] else { throw DecodeFailure("no key is numbered \(number) in CSI ~") }
                key = KeyPress(special: special, modifiers: modifiers, timestamp: time)
            }
        case UInt8(ascii: "u"):
            key = try unicodeKey(sequence, modifiers: modifiers, at: time)
        case UInt8(ascii: "Z"):
            guard count <= 2 else { throw DecodeFailure("CSI Z has \(count) parameters") }
            key = KeyPress(special: .tab, modifiers: modifiers.union(.shift), timestamp: time)
        default:
            guard let special = letterKeys[sequence.final] else {
                throw DecodeFailure("unknown CSI final byte \(sequence.final.hex)")
            }
            // xterm: CSI A unmodified, CSI 1 ; m A modified; the first parameter is always 1.
            guard count <= 2, (sequence[parameter: 0] ?? 1) == 1 else {
                throw DecodeFailure("unexpected parameters before CSI \(text(sequence.final))")
            }
            key = KeyPress(special: special, modifiers: modifiers, timestamp: time)
        }
        key.phase = phase
        return key
    }

    /// `CSI code[:shifted[:base]] ; modifiers[:event] ; text u` — fixterms, and the kitty
    /// keyboard protocol. With Shift, a text key becomes the key it shifts to (the
    /// alternate the terminal reports, or a letter's upper case) and loses `.shift`, so
    /// that text keys carry their case in the text as legacy bytes do.
    private static func unicodeKey(_ sequence: ControlSequence, modifiers: KeyModifiers, at time: UInt64) throws(DecodeFailure) -> KeyPress {
        guard let code = sequence[parameter: 0], sequence.parameters.count <= 3 else {
            throw DecodeFailure("CSI u needs a character code, then at most modifiers and text")
        }
        let alternates = sequence[subparameters: 0]
        guard alternates.count <= 2 else { throw DecodeFailure("CSI u has at most two alternate keys") }
        if let special = kittyFunctionalKeys[code] {
            return KeyPress(special: special, modifiers: modifiers, timestamp: time)
        }
        if let label = kittyKeypad[code] {
            return KeyPress(modifiers: modifiers, text: label, timestamp: time)
        }
        if kittyPrivateUse.contains(code) {
            throw DecodeFailure("kitty key \(code) (a modifier, lock, media or F13–F35 key) has no Trellis key")
        }
        if sequence.parameters.count == 3 {
            // Report-associated-text: the text the key types, as code points; the key's
            // own number may be 0 (no known key), so the text is the key.
            var text = ""
            for value in [sequence.parameters[2]] + sequence[subparameters: 2] {
                guard let value, let scalar = Unicode.Scalar(UInt32(clamping: value)) else {
                    throw DecodeFailure("CSI u text is not a list of Unicode scalars")
                }
                text.unicodeScalars.append(scalar)
            }
            return KeyPress(modifiers: modifiers.subtracting(.shift), text: text, timestamp: time)
        }
        var key = try codepoint(code, modifiers: modifiers, at: time)
        if key.special == .none, key.modifiers.contains(.shift) {
            if let shifted = alternates.first, let shifted {
                key.text = try codepoint(shifted, modifiers: [], at: time).text
                key.modifiers.remove(.shift)
            } else if key.text.count == 1, key.text.uppercased() != key.text, key.text.uppercased().count == 1 {
                key.text = key.text.uppercased()
                key.modifiers.remove(.shift)
            }
        }
        return key
    }

    /// The modifiers parameter with its kitty event type: `mods:1` press (the default),
    /// `mods:2` repeat, `mods:3` release.
    private static func modifiersAndPhase(_ sequence: ControlSequence) throws(DecodeFailure) -> (KeyModifiers, KeyPress.Phase) {
        let modifiers = try modifiers(sequence[parameter: 1])
        let event = sequence[subparameters: 1]
        guard event.count <= 1 else { throw DecodeFailure("a key's modifiers have at most an event type after them") }
        // Absent or empty means its default, a press.
        switch event.first ?? nil {
        case nil, 1?: return (modifiers, .began)
        case 2?: return (modifiers, .repeated)
        case 3?: return (modifiers, .ended)
        case let other?: throw DecodeFailure("key event type \(other) is none of 1 press, 2 repeat, 3 release")
        }
    }

    /// A key from `ESC O` and one final byte: cursor keys in application mode, F1–F4
    /// and the keypad in application keypad mode (reported as the text it is labelled with).
    static func ss3(_ final: UInt8, at time: UInt64) throws(DecodeFailure) -> KeyPress {
        if final == UInt8(ascii: "M") { return KeyPress(special: .enter, timestamp: time) }
        if let special = letterKeys[final] { return KeyPress(special: special, timestamp: time) }
        if let label = keypad[final] { return KeyPress(text: label, timestamp: time) }
        throw DecodeFailure("unknown SS3 final byte \(final.hex)")
    }

    /// xterm's modifier parameter: 1 + a bit set of shift 1, alt 2, control 4, meta 8;
    /// kitty's names 8 super and adds hyper 16, meta 32, Caps Lock 64, Num Lock 128.
    /// Bit 8 and kitty's meta are reported as alt (the bytes do not say which protocol
    /// sent them, and a terminal's Meta is its Alt); hyper and the lock keys are dropped:
    /// a lock is a state, not a modifier a command means, and the text carries the case.
    static func modifiers(_ parameter: Int?) throws(DecodeFailure) -> KeyModifiers {
        guard let parameter else { return [] }
        guard (1...256).contains(parameter) else {
            throw DecodeFailure("modifier parameter \(parameter) outside 1…256")
        }
        let bits = parameter - 1
        var result: KeyModifiers = []
        if bits & 1 != 0 { result.insert(.shift) }
        if bits & (2 | 8 | 32) != 0 { result.insert(.alt) }
        if bits & 4 != 0 { result.insert(.control) }
        return result
    }

    /// A key named by its Unicode code point, as CSI u and modifyOtherKeys report them.
    static func codepoint(_ code: Int, modifiers: KeyModifiers, at time: UInt64) throws(DecodeFailure) -> KeyPress {
        if code < 0x20 || code == 0x7F {
            var key = control(UInt8(code), alt: false, at: time)
            key.modifiers.formUnion(modifiers)
            return key
        }
        guard let scalar = Unicode.Scalar(UInt32(code)) else {
            throw DecodeFailure("character code \(code) is not a Unicode scalar")
        }
        return KeyPress(modifiers: modifiers, text: String(Character(scalar)), timestamp: time)
    }

    private static func text(_ byte: UInt8) -> String { String(Character(Unicode.Scalar(byte))) }

    private static let tildeKeys: [Int: KeyPress.Special] = [
        1: .home, 7: .home, 4: .end, 8: .end, 2: .insert, 3: .delete, 5: .pageUp, 6: .pageDown,
        11: .f1, 12: .f2, 13: .f3, 14: .f4, 15: .f5, 17: .f6, 18: .f7, 19: .f8, 20: .f9, 21: .f10,
        23: .f11, 24: .f12,
    ]

    /// The kitty protocol's numbers for keys without a character (in the Unicode private
    /// use area): the keypad's keys other than its text, which have Trellis keys.
    private static let kittyFunctionalKeys: [Int: KeyPress.Special] = [
        57414: .enter, 57417: .left, 57418: .right, 57419: .up, 57420: .down, 57421: .pageUp, 57422: .pageDown,
        57423: .home, 57424: .end, 57425: .insert, 57426: .delete,
    ]

    /// The kitty protocol's keypad keys that type text, as the text they are labelled with.
    private static let kittyKeypad: [Int: String] = [
        57399: "0", 57400: "1", 57401: "2", 57402: "3", 57403: "4", 57404: "5", 57405: "6", 57406: "7",
        57407: "8", 57408: "9", 57409: ".", 57410: "/", 57411: "*", 57412: "-", 57413: "+", 57415: "=",
        57416: ",",
    ]

    /// The rest of the kitty protocol's private-use key numbers: lock keys, F13–F35, the
    /// keypad's Begin, media keys and the modifier keys themselves.
    private static let kittyPrivateUse = 57344...57454

    private static let letterKeys: [UInt8: KeyPress.Special] = [
        UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right, UInt8(ascii: "D"): .left,
        UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end,
        UInt8(ascii: "P"): .f1, UInt8(ascii: "Q"): .f2, UInt8(ascii: "R"): .f3, UInt8(ascii: "S"): .f4,
    ]

    private static let keypad: [UInt8: String] = [
        UInt8(ascii: "j"): "*", UInt8(ascii: "k"): "+", UInt8(ascii: "l"): ",", UInt8(ascii: "m"): "-",
        UInt8(ascii: "n"): ".", UInt8(ascii: "o"): "/", UInt8(ascii: "X"): "=",
        UInt8(ascii: "p"): "0", UInt8(ascii: "q"): "1", UInt8(ascii: "r"): "2", UInt8(ascii: "s"): "3",
        UInt8(ascii: "t"): "4", UInt8(ascii: "u"): "5", UInt8(ascii: "v"): "6", UInt8(ascii: "w"): "7",
        UInt8(ascii: "x"): "8", UInt8(ascii: "y"): "9",
    ]
}
