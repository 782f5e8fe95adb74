import Testing
import TrellisCanvas
@testable import TrellisControllers
@testable import TrellisViews
import TrellisWire

/// TextView (issue 22, "Views for text and data"; docs/VIEWS.md): several lines, word
/// wrap by display width, scrolling, editable or read-only — typed at the window.
@MainActor
@Suite struct TextViewTests {
    func textView(width: Int = 12, height: Int = 4) -> (Window, TextView) {
        let w = Window(size: Size(width: 40, height: 10))
        w.rootViewController = ViewController(id: "Editor")
        w.makeKeyAndVisible()
        let t = TextView(frame: Rect(x: 0, y: 0, width: width, height: height))
        w.rootViewController!.view.addSubview(t)
        #expect(t.becomeFirstResponder())
        return (w, t)
    }

    func rows(_ w: Window, _ n: Int) -> [String] {
        Array(w.compose().text.split(separator: "\n", omittingEmptySubsequences: false).prefix(n).map(String.init))
    }

    @Test func enterBreaksTheLineAndLongLinesWrapBetweenWords() {
        let (w, t) = textView()
        w.type("first line")
        w.key(.enter)
        w.type("a second line that wraps")
        #expect(t.text == "first line\na second line that wraps")
        #expect(rows(w, 4) == ["first line", "a second", "line that", "wraps"])
    }

    @Test func japaneseWrapsByDisplayWidthAndUpDownKeepTheColumn() {
        let (w, t) = textView(width: 9)
        w.type("日本語の文章を折り返す")
        // Four wide characters (8 columns) a line; the ninth column stays empty.
        #expect(rows(w, 3) == ["日本語の", "文章を折", "り返す"])
        w.key(.up)
        w.key(.up)
        #expect(t.cursor == 3)             // the same column, two lines up: before の
        w.key(.backspace)                  // 語, whole
        #expect(t.text == "日本の文章を折り返す")
        w.key(.down)
        #expect(t.cursor == 6)             // column 4 of the next line on screen
    }

    @Test func theViewScrollsToKeepTheCursorsLineOnScreen() {
        let (w, t) = textView(width: 10, height: 3)
        w.paste("1\n2\n3\n4\n5\n6")
        // Issue 22: the scroll indicator in the last column says where the lines are.
        #expect(rows(w, 3) == ["4        │", "5        ┃", "6        ┃"])
        w.key(.pageUp)
        w.key(.pageUp)                     // two lines a page: from line 6 to line 2
        #expect(rows(w, 3) == ["2        ┃", "3        ┃", "4        │"])
        #expect(t.firstLine == 1)
        w.key(.home, modifiers: .control)
        #expect(rows(w, 3) == ["1        ┃", "2        ┃", "3        │"])
    }

    @Test func aPasteIsOneEditAndKeepsItsLines() {
        let (w, t) = textView(width: 20)
        var changes = 0
        t.addAction(for: .editingChanged) { _ in changes += 1 }
        w.paste("one\r\ntwo\tthree")
        #expect(t.text == "one\ntwo    three")
        #expect(changes == 1)
    }

    @Test func backspaceAtTheStartOfALineJoinsItToTheLineAbove() {
        let (w, t) = textView()
        w.type("ab")
        w.key(.enter)
        w.type("cd")
        w.key(.home)
        w.key(.backspace)
        #expect(t.text == "abcd")
        #expect(t.cursor == 2)
    }

    @Test func readOnlyTextMovesAndScrollsButDoesNotChange() {
        let (w, t) = textView(width: 10, height: 2)
        t.text = "one\ntwo\nthree"
        t.isEditable = false
        t.moveCursor(to: 0)
        guard case .unhandled = w.key(KeyPress(text: "x")) else { Issue.record("typing into read-only text"); return }
        w.key(.down)
        w.key(.down)
        #expect(t.text == "one\ntwo\nthree")
        #expect(rows(w, 2) == ["two      │", "three    ┃"])
        // No cursor is drawn in read-only text.
        #expect(!(0..<10).contains { w.compose().cell(at: Point(x: $0, y: 1))?.attributes.contains(.reverse) == true })
    }

    @Test func tabGoesOnToMoveFocus() {
        let (w, t) = textView()
        let field = TextField(frame: Rect(x: 0, y: 6, width: 10, height: 1))
        w.rootViewController!.view.addSubview(field)
        w.key(.tab)
        #expect(field.isFocused && !t.isFocused)
    }
}
