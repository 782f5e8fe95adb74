import Testing
import TrellisViews
import TrellisWire

/// Key names as people write them and footers show them (issue 22: `trellis keys`,
/// `trellis key`, key commands): read back what `description` prints, refuse the rest
/// with the reason.
@Suite struct KeyParsingTests {
    @Test(arguments: [
        ("ctrl+s", Key(text: "s", modifiers: .control)),
        ("^S", Key(text: "s", modifiers: .control)),
        ("Ctrl+Alt+X", Key(text: "x", modifiers: [.control, .alt])),
        ("shift+tab", Key(.tab, modifiers: .shift)),
        ("alt+enter", Key(.enter, modifiers: .alt)),
        ("Return", Key(.enter)),
        ("pgdn", Key(.pageDown)),
        ("PageUp", Key(.pageUp)),
        ("↑", Key(.up)),
        ("F12", Key(.f12)),
        ("space", Key(text: " ")),
        ("Q", Key(text: "Q")),
        ("語", Key(text: "語")),
        ("+", Key(text: "+")),
        ("ctrl++", Key(text: "+", modifiers: .control)),
    ])
    func namesAreRead(name: String, key: Key) throws {
        #expect(try Key(parsing: name) == key)
    }

    @Test func everyNameAFooterShowsReadsBack() throws {
        let specials = KeyPress.Special.allCases.filter { $0 != .none }
        let modifierSets: [KeyModifiers] = [[], .shift, .alt, .control, [.control, .alt], [.control, .shift]]
        for special in specials {
            for m in modifierSets {
                let key = Key(special, modifiers: m)
                #expect(try Key(parsing: key.description) == key, "\(key)")
            }
        }
        for text in ["a", "Z", "1", "/", " ", "か"] {
            for m in [KeyModifiers(), .alt, .control, [.control, .alt]] {
                let key = Key(text: m.contains(.control) ? text.lowercased() : text, modifiers: m)
                #expect(try Key(parsing: key.description) == key, "\(key)")
            }
        }
    }

    @Test(arguments: [
        ("", "empty key name"),
        ("hyper+x", "unknown modifier 'hyper' in 'hyper+x'; one of ctrl, alt, shift"),
        ("ctrl+ctrl+x", "'ctrl' twice in 'ctrl+ctrl+x'"),
        ("shift+a", "Shift with 'a' in 'shift+a': a terminal sends the character in its case instead ('A')"),
        ("paste+x", "unknown modifier 'paste' in 'paste+x'; one of ctrl, alt, shift"),
    ])
    func badNamesAreRefusedWithTheReason(name: String, reason: String) {
        #expect(throws: KeyParseError(reason)) { try Key(parsing: name) }
    }

    @Test func unknownAndOverlongNamesAreRefused() {
        #expect(throws: KeyParseError.self) { try Key(parsing: "ctrl+banana") }
        #expect(throws: KeyParseError("key name of 65 characters; at most 64")) {
            try Key(parsing: String(repeating: "x", count: 65))
        }
    }
}
