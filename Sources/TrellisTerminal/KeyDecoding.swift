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

    /// A key from a CSI sequence other than mouse, paste and focus reports.
    static func csi(_ sequence: ControlSequence, at time: UInt64) throws(DecodeFailure) -> KeyPress {
        if let marker = sequence.marker {
            throw DecodeFailure("no key uses private marker \(marker.hex)")
        }
        if !sequence.intermediates.isEmpty {
            throw DecodeFailure("no key uses intermediate bytes")
        }
        let count = sequence.parameters.count
        switch sequence.final {
        case UInt8(ascii: "~"):
            guard let number = sequence[parameter: 0] else { throw DecodeFailure("CSI ~ without a key number") }
            let modifiers = try modifiers(sequence[parameter: 1])
            if number == 27 {
                // xterm's modifyOtherKeys: CSI 27 ; modifiers ; code ~
                guard count == 3, let code = sequence[parameter: 2] else {
                    throw DecodeFailure("CSI 27 ~ needs a modifier and a character code")
                }
                return try codepoint(code, modifiers: modifiers, at: time)
            }
            guard count <= 2 else { throw DecodeFailure("CSI \(number) ~ has \(count) parameters, at most 2 expected") }
            guard let special = tildeKeys[number] else { throw DecodeFailure("no key is numbered \(number) in CSI ~") }
            return KeyPress(special: special, modifiers: modifiers, timestamp: time)
        case UInt8(ascii: "u"):
            // fixterms / kitty: CSI code ; modifiers u
            guard let code = sequence[parameter: 0], count <= 2 else {
                throw DecodeFailure("CSI u needs a character code and at most a modifier")
            }
            return try codepoint(code, modifiers: modifiers(sequence[parameter: 1]), at: time)
        case UInt8(ascii: "Z"):
            guard count <= 2 else { throw DecodeFailure("CSI Z has \(count) parameters") }
            return KeyPress(special: .tab, modifiers: try modifiers(sequence[parameter: 1]).union(.shift), timestamp: time)
        default:
            guard let special = letterKeys[sequence.final] else {
                throw DecodeFailure("unknown CSI final byte \(sequence.final.hex)")
            }
            // xterm: CSI A unmodified, CSI 1 ; m A modified; the first parameter is always 1.
            guard count <= 2, (sequence[parameter: 0] ?? 1) == 1 else {
                throw DecodeFailure("unexpected parameters before CSI \(text(sequence.final))")
            }
            return KeyPress(special: special, modifiers: try modifiers(sequence[parameter: 1]), timestamp: time)
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

    /// xterm's modifier parameter: 1 + a bit set of shift 1, alt 2, control 4, meta 8.
    /// Meta is reported as alt; kitty's higher bits (super, hyper, lock keys) are dropped.
    static func modifiers(_ parameter: Int?) throws(DecodeFailure) -> KeyModifiers {
        guard let parameter else { return [] }
        guard (1...256).contains(parameter) else {
            throw DecodeFailure("modifier parameter \(parameter) outside 1…256")
        }
        let bits = parameter - 1
        var result: KeyModifiers = []
        if bits & 1 != 0 { result.insert(.shift) }
        if bits & (2 | 8) != 0 { result.insert(.alt) }
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
