import Testing
import TrellisTerminal
import TrellisWire

let textCases: [InputCase] = [
    InputCase("ASCII letters, one key each", "ab", [text("a"), text("b")]),
    InputCase("two-byte UTF-8", "é", [text("é")]),
    InputCase("wide CJK", "日本", [text("日"), text("本")]),
    InputCase("four-byte emoji", "😀", [text("😀")]),
    InputCase("space and punctuation", " ~", [text(" "), text("~")]),
]

let controlCases: [InputCase] = [
    InputCase("CR is Enter", [0x0D], [key(.enter)]),
    InputCase("HT is Tab", [0x09], [key(.tab)]),
    InputCase("DEL is Backspace", [0x7F], [key(.backspace)]),
    InputCase("BS is Backspace", [0x08], [key(.backspace)]),
    InputCase("Ctrl+A", [0x01], [text("a", .control)]),
    InputCase("Ctrl+Z", [0x1A], [text("z", .control)]),
    InputCase("LF is Ctrl+J", [0x0A], [text("j", .control)]),
    InputCase("NUL is Ctrl+Space", [0x00], [text(" ", .control)]),
    InputCase("Ctrl+\\", [0x1C], [text("\\", .control)]),
    InputCase("Ctrl+_", [0x1F], [text("_", .control)]),
]

let altCases: [InputCase] = [
    InputCase("Esc x is Alt+x", "\(esc)x", [text("x", .alt)]),
    InputCase("Esc X is Alt+X", "\(esc)X", [text("X", .alt)]),
    InputCase("Esc DEL is Alt+Backspace", [0x1B, 0x7F], [key(.backspace, .alt)]),
    InputCase("Esc CR is Alt+Enter", [0x1B, 0x0D], [key(.enter, .alt)]),
    InputCase("Esc Ctrl+A is Ctrl+Alt+A", [0x1B, 0x01], [text("a", [.control, .alt])]),
    InputCase("Esc and a wide character", "\(esc)日", [text("日", .alt)]),
    InputCase("Esc Esc is two Esc keys", "\(esc)\(esc)", [key(.escape), key(.escape)]),
    InputCase("lone Esc settles as Esc", esc, [key(.escape)]),
    InputCase("lone Esc [ settles as Alt+[", "\(esc)[", [text("[", .alt)]),
    InputCase("lone Esc O settles as Alt+O", "\(esc)O", [text("O", .alt)]),
    InputCase("Esc [ then Esc x", "\(esc)[\(esc)x", [text("[", .alt), text("x", .alt)]),
]

let csiCases: [InputCase] = [
    InputCase("arrows", "\(esc)[A\(esc)[B\(esc)[C\(esc)[D", [key(.up), key(.down), key(.right), key(.left)]),
    InputCase("Home/End letters", "\(esc)[H\(esc)[F", [key(.home), key(.end)]),
    InputCase("SS3 arrows", "\(esc)OA\(esc)OD", [key(.up), key(.left)]),
    InputCase("SS3 Home/End", "\(esc)OH\(esc)OF", [key(.home), key(.end)]),
    InputCase("SS3 F1–F4", "\(esc)OP\(esc)OQ\(esc)OR\(esc)OS", [key(.f1), key(.f2), key(.f3), key(.f4)]),
    InputCase("SS3 keypad Enter and digit", "\(esc)OM\(esc)Op", [key(.enter), text("0")]),
    InputCase("Ctrl+Up", "\(esc)[1;5A", [key(.up, .control)]),
    InputCase("Shift+Down", "\(esc)[1;2B", [key(.down, .shift)]),
    InputCase("Alt+Right", "\(esc)[1;3C", [key(.right, .alt)]),
    InputCase("Ctrl+Alt+Shift+Left", "\(esc)[1;8D", [key(.left, [.shift, .alt, .control])]),
    InputCase("meta is alt", "\(esc)[1;9A", [key(.up, .alt)]),
    InputCase("Insert Delete", "\(esc)[2~\(esc)[3~", [key(.insert), key(.delete)]),
    InputCase("PgUp PgDn", "\(esc)[5~\(esc)[6~", [key(.pageUp), key(.pageDown)]),
    InputCase("Ctrl+PgDn", "\(esc)[6;5~", [key(.pageDown, .control)]),
    InputCase("Home/End tilde forms", "\(esc)[1~\(esc)[4~\(esc)[7~\(esc)[8~", [key(.home), key(.end), key(.home), key(.end)]),
    InputCase(
        "F1–F12 tilde forms",
        ["11", "12", "13", "14", "15", "17", "18", "19", "20", "21", "23", "24"].map { "\(esc)[\($0)~" }.joined(),
        [key(.f1), key(.f2), key(.f3), key(.f4), key(.f5), key(.f6), key(.f7), key(.f8), key(.f9), key(.f10), key(.f11), key(.f12)]
    ),
    InputCase("Ctrl+F1", "\(esc)[1;5P", [key(.f1, .control)]),
    InputCase("Shift+F5", "\(esc)[15;2~", [key(.f5, .shift)]),
    InputCase("Shift+Tab", "\(esc)[Z", [key(.tab, .shift)]),
    InputCase("CSI u Ctrl+a", "\(esc)[97;5u", [text("a", .control)]),
    InputCase("CSI u Shift+Enter", "\(esc)[13;2u", [key(.enter, .shift)]),
    InputCase("modifyOtherKeys Ctrl+a", "\(esc)[27;5;97~", [text("a", .control)]),
    InputCase("focus in and out", "\(esc)[I\(esc)[O", [.focus(true), .focus(false)]),
]

@Suite("Terminal input: keys")
struct KeyInputTests {
    @Test(arguments: textCases)
    func textKeys(_ row: InputCase) { #expect(decode(row.bytes) == row.events) }

    @Test(arguments: controlCases)
    func controls(_ row: InputCase) { #expect(decode(row.bytes) == row.events) }

    @Test(arguments: altCases)
    func alt(_ row: InputCase) { #expect(decode(row.bytes) == row.events) }

    @Test(arguments: csiCases)
    func sequences(_ row: InputCase) { #expect(decode(row.bytes) == row.events) }

    @Test func invalidUTF8IsReportedAndTheRestDecodes() {
        let events = decode([0xFF, 0x61, 0xE6, 0x97, 0x62, 0x80, 0xED, 0xA0, 0x80, 0x63, 0xE6, 0x97, 0xA5])
        #expect(events == [
            .invalid(bytes: [0xFF], reason: "byte 0xff never occurs in UTF-8"),
            text("a"),
            .invalid(bytes: [0xE6, 0x97], reason: "UTF-8 character cut short by byte 0x62"),
            text("b"),
            .invalid(bytes: [0x80], reason: "UTF-8 continuation byte 0x80 without a lead byte"),
            // A surrogate (U+D800) is not UTF-8: the lead stops at its second byte.
            .invalid(bytes: [0xED], reason: "UTF-8 character cut short by byte 0xa0"),
            .invalid(bytes: [0xA0], reason: "UTF-8 continuation byte 0xa0 without a lead byte"),
            .invalid(bytes: [0x80], reason: "UTF-8 continuation byte 0x80 without a lead byte"),
            text("c"),
            text("日"),
        ])
    }

    @Test func overlongUTF8IsRejected() {
        let events = decode([0xC0, 0xAF, 0xE0, 0x80, 0xAF, 0x61])
        #expect(events.filter(\.isInvalid).count == 5)
        #expect(events.last == text("a"))
    }
}
