import Testing
import TrellisTerminal
import TrellisWire

/// A key in a phase, as the kitty keyboard protocol reports it.
func phased(_ event: InputEvent, _ phase: KeyPress.Phase) -> InputEvent {
    guard case .key(var key) = event else { return event }
    key.phase = phase
    return .key(key)
}

/// Issue 22: the kitty keyboard protocol's forms, decoded into the keys legacy bytes
/// give, plus the phase: press, repeat, release (docs/TERMINAL.md "Input").
let kittyCases: [InputCase] = [
    // CSI code ; modifiers:event u
    InputCase("Esc disambiguated", "\(esc)[27u", [key(.escape)]),
    InputCase("a let go", "\(esc)[97;1:3u", [phased(text("a"), .ended)]),
    InputCase("a held (repeat)", "\(esc)[97;1:2u", [phased(text("a"), .repeated)]),
    InputCase("explicit press", "\(esc)[97;1:1u", [text("a")]),
    InputCase("empty event type is a press", "\(esc)[97;5:u", [text("a", .control)]),
    InputCase("Ctrl+C as kitty sends it", "\(esc)[99;5u", [text("c", .control)]),
    InputCase("Ctrl+I is not Tab", "\(esc)[105;5u", [text("i", .control)]),
    InputCase("Alt+x", "\(esc)[120;3u", [text("x", .alt)]),
    InputCase("Enter released", "\(esc)[13;1:3u", [phased(key(.enter), .ended)]),
    InputCase("Shift+Tab", "\(esc)[9;2u", [key(.tab, .shift)]),
    InputCase("Backspace repeating with Ctrl", "\(esc)[127;5:2u", [phased(key(.backspace, .control), .repeated)]),
    // Shift: the shifted alternate key, or a letter's upper case, as legacy text carries it.
    InputCase("Alt+Shift+1 by its shifted key", "\(esc)[49:33;4u", [text("!", .alt)]),
    InputCase("Alt+Shift+a by its shifted key", "\(esc)[97:65;4u", [text("A", .alt)]),
    InputCase("Ctrl+Shift+a without alternates", "\(esc)[97;6u", [text("A", .control)]),
    InputCase("Shift+1 without alternates keeps Shift", "\(esc)[49;2u", [text("1", .shift)]),
    InputCase("base layout key is ignored", "\(esc)[1089::99;5u", [text("с", .control)]),
    InputCase("Shift+a released, shifted key given", "\(esc)[97:65;2:3u", [phased(text("A"), .ended)]),
    InputCase("associated text", "\(esc)[97;2;65u", [text("A")]),
    InputCase("associated text of two scalars", "\(esc)[101;1;101:769u", [text("e\u{301}")]),
    // Modifiers beyond shift, alt and control: super and meta are Alt, the rest dropped.
    InputCase("super is Alt", "\(esc)[120;9u", [text("x", .alt)]),
    InputCase("meta is Alt", "\(esc)[120;33u", [text("x", .alt)]),
    InputCase("hyper, Caps Lock, Num Lock are dropped", "\(esc)[120;\(1 + 16 + 64 + 128)u", [text("x")]),
    // The keypad's private-use numbers.
    InputCase("keypad 7", "\(esc)[57406u", [text("7")]),
    InputCase("keypad Enter released", "\(esc)[57414;1:3u", [phased(key(.enter), .ended)]),
    InputCase("keypad Up", "\(esc)[57419u", [key(.up)]),
    // The legacy functional keys in kitty's form: CSI 1;mods:event A, CSI number;mods:event ~.
    InputCase("Up released", "\(esc)[1;1:3A", [phased(key(.up), .ended)]),
    InputCase("Ctrl+Right repeating", "\(esc)[1;5:2C", [phased(key(.right, .control), .repeated)]),
    InputCase("Home pressed", "\(esc)[1;1:1H", [key(.home)]),
    InputCase("F1 released", "\(esc)[1;1:3P", [phased(key(.f1), .ended)]),
    InputCase("F3 as CSI 13 ~", "\(esc)[13~", [key(.f3)]),
    InputCase("Delete released", "\(esc)[3;1:3~", [phased(key(.delete), .ended)]),
    InputCase("Shift+PageDown repeating", "\(esc)[6;2:2~", [phased(key(.pageDown, .shift), .repeated)]),
    // Under the flags the compositor pushes a text key is its text, pressed only; a
    // terminal reporting every key (flag 8) gives its release as CSI u.
    InputCase("text press then its release (flag 8)", "q\(esc)[113;1:3u", [text("q"), phased(text("q"), .ended)]),
    InputCase("text without a known key (key number 0)", "\(esc)[0;;229u", [text("å")]),
    InputCase("text with Alt keeps Alt", "\(esc)[97;3;229u", [text("å", .alt)]),
]

/// Issue 22: kitty forms that are wrong are `.invalid` with a reason, and the next key
/// survives them.
let kittyGarbageCases: [InputCase] = [
    InputCase("unknown event type", "\(esc)[97;1:4u", []),
    InputCase("event type zero", "\(esc)[97;1:0u", []),
    InputCase("two event types", "\(esc)[97;1:3:3u", []),
    InputCase("three alternate keys", "\(esc)[97:65:97:1u", []),
    InputCase("sub-parameter on a key number", "\(esc)[3:1;1:3~", []),
    InputCase("sub-parameter on a letter key's 1", "\(esc)[1:2;1A", []),
    InputCase("four CSI u parameters", "\(esc)[97;1;97;1u", []),
    InputCase("shifted key outside Unicode", "\(esc)[97:55296;2u", []),
    InputCase("text outside Unicode", "\(esc)[97;1;55296u", []),
    InputCase("empty text value", "\(esc)[97;1;97:u", []),
    InputCase("a modifier key itself", "\(esc)[57441;2u", []),
    InputCase("F13", "\(esc)[57376u", []),
    InputCase("over-long sub-parameter", "\(esc)[97;1:12345678u", []),
    InputCase("over-long kitty sequence", "\(esc)[97" + String(repeating: ":97", count: 30) + "u", []),
    InputCase("flags answer with two numbers", "\(esc)[?1;2u", []),
    InputCase("flags answer with no number", "\(esc)[?u", []),
]

@Suite("Terminal input: the kitty keyboard protocol (issue 22)")
struct KittyKeyInputTests {
    @Test(arguments: kittyCases)
    func decodes(_ row: InputCase) {
        #expect(decode(row.bytes) == row.events)
    }

    @Test(arguments: kittyGarbageCases)
    func garbageIsInvalidAndTheNextKeySurvives(_ row: InputCase) {
        let events = decode(row.bytes + Array("z".utf8))
        #expect(events.count >= 2, "\(events)")
        #expect(events.dropLast().allSatisfy { $0.isInvalid }, "\(events)")
        #expect(events.last == text("z"))
    }

    /// A kitty sequence cut short settles as invalid when its time is up; the key read
    /// after it is whole.
    @Test func aTruncatedKittySequenceIsInvalidAndTheNextKeySurvives() {
        var parser = TerminalInputParser()
        #expect(parser.feed(Array("\(esc)[97;1:".utf8), now: 0).isEmpty)
        let events = parser.feed(Array("z".utf8), now: 100_000_000)
        #expect(events.count == 2 && events.first?.isInvalid == true, "\(events)")
        #expect(events.last == text("z", at: 100_000_000))
    }

    /// The answers to the compositor's query are never keys, however they arrive.
    @Test func theTerminalsAnswersAreAnswersNotKeys() {
        let answers = "\(esc)[?7u\(esc)[?62;22c"
        #expect(decode(Array(answers.utf8)) == [.answer(.keyboardFlags(7)), .answer(.deviceAttributes)])
        var parser = TerminalInputParser()
        var events: [InputEvent] = []
        for byte in Array(("x" + answers + "y").utf8) { events += parser.feed([byte], now: 0) }
        #expect(events == [text("x"), .answer(.keyboardFlags(7)), .answer(.deviceAttributes), text("y")])
        for event in events where !event.isKey {
            guard case .ignored = event.route else { Issue.record("\(event) routes as \(event.route)"); continue }
        }
    }
}

extension InputEvent {
    var isKey: Bool { if case .key = self { true } else { false } }
}
