import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// TextField (issue 22, "Views for text and data"; docs/VIEWS.md): single-line editing
/// typed at the window, as a terminal types — Japanese included, the seeds' language.
@MainActor
@Suite struct TextFieldTests {
    /// A window with a focused field of `width` columns on its first row.
    func field(width: Int = 20) -> (Window, TextField) {
        let w = Window(size: Size(width: 40, height: 5))
        w.rootViewController = ViewController(id: "Form")
        w.makeKeyAndVisible()
        let f = TextField(frame: Rect(x: 0, y: 0, width: width, height: 1))
        w.rootViewController!.view.addSubview(f)
        #expect(f.becomeFirstResponder())
        return (w, f)
    }

    func firstRow(_ w: Window) -> String {
        String(w.compose().text.split(separator: "\n", omittingEmptySubsequences: false)[0])
    }

    @Test func typingInsertsAtTheCursorAndArrowsMoveIt() {
        let (w, f) = field()
        w.type("helo")
        w.key(.left)
        w.type("l")
        #expect(f.text == "hello")
        #expect(f.cursor == 4)
        w.key(.end)
        w.type("!")
        w.key(.home)
        w.type(">")
        #expect(f.text == ">hello!")
        #expect(firstRow(w) == ">hello!")
    }

    @Test func japaneseIsTypedAndEditedWholeCharactersAtATime() {
        let (w, f) = field()
        w.type("こんにちは")
        #expect(f.cursor == 5)
        w.key(.left)
        w.key(.left)
        w.key(.backspace)            // に goes, whole
        #expect(f.text == "こんちは")
        w.type("世界")
        #expect(f.text == "こん世界ちは")
        w.key(.delete)               // ち
        #expect(f.text == "こん世界は")
        // Each character takes two cells; the cursor is drawn on the cell pair of は.
        let screen = w.compose()
        #expect(firstRow(w) == "こん世界は")
        #expect(screen.cell(at: Point(x: 8, y: 0))?.attributes.contains(.reverse) == true)
        #expect(screen.cell(at: Point(x: 6, y: 0))?.attributes.contains(.reverse) == false)
    }

    @Test func aCombiningMarkJoinsTheCharacterBeforeItAndIsDeletedWithIt() {
        let (w, f) = field()
        w.type("cafe")
        w.key(KeyPress(text: "\u{301}"))
        #expect(f.text == "caf\u{E9}" || f.text == "cafe\u{301}")
        #expect(f.cursor == 4)
        w.type("か")
        w.key(KeyPress(text: "\u{3099}"))   // the voiced mark makes が
        #expect(f.cursor == 5)
        w.key(.backspace)
        w.key(.backspace)
        #expect(f.text == "caf")
    }

    @Test func deletingByWordAsReadlineDoes() {
        let (w, f) = field(width: 30)
        w.type("hello brave new world")
        w.key(KeyPress(modifiers: .control, text: "w"))
        #expect(f.text == "hello brave new ")
        w.key(.backspace, modifiers: .alt)
        #expect(f.text == "hello brave ")
        w.key(.home)
        w.key(.right, modifiers: .control)     // to the end of "hello"
        #expect(f.cursor == 5)
        w.key(KeyPress(modifiers: .alt, text: "d"))
        #expect(f.text == "hello ")
        w.key(KeyPress(modifiers: .control, text: "u"))   // to the start of the line
        #expect(f.text == " ")
    }

    @Test func shiftSelectsAndTypingReplacesTheSelection() {
        let (w, f) = field()
        w.type("good morning")
        w.key(.left, modifiers: [.shift, .alt])
        #expect(f.selectedText == "morning")
        w.type("night")
        #expect(f.text == "good night")
        w.key(.home, modifiers: .shift)
        #expect(f.selectedText == "good night")
        w.key(.backspace)
        #expect(f.text.isEmpty)
    }

    @Test func thePlaceholderShowsDimmedWhileTheTextIsEmpty() {
        let (w, f) = field()
        f.placeholder = "検索"
        #expect(firstRow(w) == "検索")
        #expect(w.compose().cell(at: Point(x: 0, y: 0))?.attributes.contains(.dim) == true)
        w.type("a")
        #expect(firstRow(w) == "a")
    }

    @Test func secureEntryShowsABulletPerCharacter() {
        let (w, f) = field()
        f.isSecureTextEntry = true
        w.type("パスword")
        #expect(f.text == "パスword")
        #expect(firstRow(w) == "••••••")
        w.key(KeyPress(modifiers: .control, text: "w"))   // the whole secret is one word
        #expect(f.text.isEmpty)
    }

    @Test func longTextScrollsSidewaysToKeepTheCursorInView() {
        let (w, f) = field(width: 8)
        w.type("abcdefghijkl")
        // Seven characters and the cursor's cell.
        #expect(firstRow(w) == "fghijkl")
        w.key(.home)
        #expect(firstRow(w) == "abcdefgh")
        #expect(f.firstVisible == 0)
    }

    @Test func scrollingNeverCutsAWideCharacter() {
        let (w, _) = field(width: 5)
        w.type("日本語です")
        // 4 columns of text before the cursor's cell: two wide characters, never one and a half.
        let row = firstRow(w)
        #expect(row == "です")
        w.key(.left)
        w.key(.left)
        w.key(.left)
        #expect(firstRow(w).hasPrefix("語"))
        #expect(CharacterWidth.columns(of: firstRow(w)) <= 5)
    }

    @Test func aPasteIsOneInsertionOnOneLine() {
        let (w, f) = field(width: 30)
        var changes = 0
        f.addAction(for: .editingChanged) { _ in changes += 1 }
        w.type("> ")
        changes = 0
        #expect(w.paste("line one\nline two\tend") == .handled)
        #expect(f.text == "> line one line two end")
        #expect(changes == 1)
    }

    @Test func aHugePasteIsKeptAndTheFieldStaysEditableAtBothEnds() {
        let (w, f) = field(width: 30)
        let huge = String(repeating: "日本語とEnglish ", count: 20_000)
        #expect(w.paste(huge) == .handled)
        #expect(f.text.count == huge.count)
        w.type("!")
        w.key(.home)
        w.key(.delete)
        #expect(f.text.count == huge.count)
        #expect(f.text.hasPrefix("本語と") && f.text.hasSuffix(" !"))
        #expect(firstRow(w).hasPrefix("本語と"))
    }

    @Test func editingChangedAndReturnReachTheirTargets() {
        let (w, f) = field()
        var events: [String] = []
        f.addAction(for: .editingChanged) { c in events.append("changed \((c as! TextField).text)") }
        f.addAction(for: .primaryActionTriggered) { c in events.append("return \((c as! TextField).text)") }
        w.type("ok")
        w.key(.enter)
        f.text = "set by code"    // as in UIKit, no editingChanged
        #expect(events == ["changed o", "changed ok", "return ok"])
    }

    @Test func editingBeginsAndEndsWithFocus() {
        let (w, f) = field()
        let other = TextField(frame: Rect(x: 0, y: 2, width: 10, height: 1))
        w.rootViewController!.view.addSubview(other)
        var events: [String] = []
        for (name, field) in [("f", f), ("other", other)] {
            field.addAction(for: .editingDidBegin) { _ in events.append("\(name) begins") }
            field.addAction(for: .editingDidEnd) { _ in events.append("\(name) ends") }
        }
        w.key(.tab)
        f.becomeFirstResponder()
        #expect(events == ["f ends", "other begins", "other ends", "f begins"])
    }

    @Test func tabAndCommandKeysGoOnUpTheChain() {
        let (w, f) = field()
        let other = TextField(frame: Rect(x: 0, y: 2, width: 10, height: 1))
        w.rootViewController!.view.addSubview(other)
        w.type("x")
        w.key(.tab)
        #expect(other.isFocused)
        #expect(f.text == "x")
        guard case .unhandled = w.key(KeyPress(modifiers: .control, text: "g")) else {
            Issue.record("Ctrl-G is not the field's"); return
        }
    }

    @Test func aClickPlacesTheCursor() {
        let (w, f) = field()
        w.type("日本語")
        w.tap(at: Point(x: 3, y: 0))       // the right half of 本
        #expect(f.cursor == 1)
    }
}
