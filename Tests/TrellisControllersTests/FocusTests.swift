import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Focus" (issue 22): one first responder per window, moved by code,
/// by Tab and Shift-Tab, and by a click; drawn as focused.
@MainActor
@Suite struct FocusTests {
    final class Tile: View {
        var focusable = true
        var keepsFocus = false
        override var canBecomeFocused: Bool { focusable }
        override var canResignFirstResponder: Bool { !keepsFocus }
    }

    func tile(_ name: String, _ frame: Rect, in parent: View) -> Tile {
        let t = Tile(frame: frame)
        t.identifier = name
        parent.addSubview(t)
        return t
    }

    func window(_ root: ViewController = ViewController(id: "Root")) -> Window {
        let w = Window(size: Size(width: 60, height: 20))
        w.rootViewController = root
        w.makeKeyAndVisible()
        return w
    }

    var focusedName: (Window) -> String? {
        { $0.focusedView?.identifier }
    }

    @Test func oneViewAtATimeIsFirstResponder() {
        let w = window()
        let a = tile("a", Rect(x: 0, y: 0, width: 5, height: 1), in: w.rootViewController!.view)
        let b = tile("b", Rect(x: 10, y: 0, width: 5, height: 1), in: w.rootViewController!.view)
        #expect(a.becomeFirstResponder())
        #expect(a.isFirstResponder)
        #expect(b.becomeFirstResponder())
        #expect(b.isFirstResponder && !a.isFirstResponder)
        #expect(b.resignFirstResponder())
        #expect(focusedName(w) == nil)
    }

    @Test func aViewThatCannotBeFocusedOrIsOutsideAWindowRefuses() {
        let w = window()
        let plain = View(frame: Rect(x: 0, y: 0, width: 5, height: 1))
        w.rootViewController!.view.addSubview(plain)
        #expect(!plain.becomeFirstResponder())
        let loose = Tile(frame: Rect(x: 0, y: 0, width: 5, height: 1))
        #expect(!loose.becomeFirstResponder())
        let hidden = tile("hidden", Rect(x: 0, y: 2, width: 5, height: 1), in: w.rootViewController!.view)
        hidden.superview!.isHidden = true
        #expect(!hidden.becomeFirstResponder())
    }

    @Test func aFirstResponderThatWillNotResignKeepsFocus() {
        // UIKit: becomeFirstResponder first asks the current first responder to resign.
        let w = window()
        let a = tile("a", Rect(x: 0, y: 0, width: 5, height: 1), in: w.rootViewController!.view)
        let b = tile("b", Rect(x: 10, y: 0, width: 5, height: 1), in: w.rootViewController!.view)
        a.becomeFirstResponder()
        a.keepsFocus = true
        #expect(!b.becomeFirstResponder())
        #expect(!a.resignFirstResponder())
        #expect(a.isFirstResponder)
    }

    @Test func aFocusedViewThatLeavesTheWindowLosesFocus() {
        let w = window()
        let box = View(frame: Rect(x: 0, y: 0, width: 20, height: 5))
        w.rootViewController!.view.addSubview(box)
        let a = tile("a", Rect(x: 0, y: 0, width: 5, height: 1), in: box)
        a.keepsFocus = true
        a.becomeFirstResponder()
        box.removeFromSuperview()
        #expect(focusedName(w) == nil)
        #expect(!a.isFocused)
    }

    @Test func aFocusedViewMovedWithinTheWindowKeepsFocusAndOneMovedOutLosesIt() {
        let w = window()
        let left = View(frame: Rect(x: 0, y: 0, width: 20, height: 5))
        let right = View(frame: Rect(x: 20, y: 0, width: 20, height: 5))
        w.rootViewController!.view.addSubview(left)
        w.rootViewController!.view.addSubview(right)
        let a = tile("a", Rect(x: 0, y: 0, width: 5, height: 1), in: left)
        a.becomeFirstResponder()
        right.addSubview(a)
        #expect(a.isFocused)
        let elsewhere = View(frame: Rect(x: 0, y: 0, width: 20, height: 5))
        elsewhere.addSubview(a)
        #expect(focusedName(w) == nil)
    }

    @Test func aFocusedViewThatIsHiddenLosesFocus() {
        let w = window()
        let box = View(frame: Rect(x: 0, y: 0, width: 20, height: 5))
        w.rootViewController!.view.addSubview(box)
        let a = tile("a", Rect(x: 0, y: 0, width: 5, height: 1), in: box)
        a.becomeFirstResponder()
        box.isHidden = true
        #expect(focusedName(w) == nil)
        box.isHidden = false
        #expect(focusedName(w) == nil)
    }

    @Test func tabVisitsFocusableViewsInReadingOrderAcrossControllersAndWraps() {
        let root = ViewController(id: "Root")
        let w = window(root)
        let child = ViewController(id: "Child")
        root.addChild(child)
        child.view.frame = Rect(x: 0, y: 5, width: 60, height: 10)
        root.view.addSubview(child.view)
        child.didMove(toParent: root)
        _ = tile("top-right", Rect(x: 30, y: 0, width: 5, height: 1), in: root.view)
        _ = tile("top-left", Rect(x: 0, y: 0, width: 5, height: 1), in: root.view)
        _ = tile("in-child", Rect(x: 2, y: 1, width: 5, height: 1), in: child.view)
        let off = tile("unfocusable", Rect(x: 10, y: 0, width: 5, height: 1), in: root.view)
        off.focusable = false
        _ = tile("bottom", Rect(x: 0, y: 18, width: 5, height: 1), in: root.view)
        var visited: [String?] = []
        for _ in 0..<5 {
            #expect(w.key(.tab) == .handled)
            visited.append(focusedName(w))
        }
        #expect(visited == ["top-left", "top-right", "in-child", "bottom", "top-left"])
        w.key(.tab, modifiers: .shift)
        #expect(focusedName(w) == "bottom")
    }

    @Test func aContainerCanDeclareTheOrderOfItsViews() {
        let w = window()
        let root = w.rootViewController!.view
        _ = tile("first", Rect(x: 0, y: 0, width: 5, height: 1), in: root)
        let form = View(frame: Rect(x: 0, y: 2, width: 40, height: 5))
        root.addSubview(form)
        let name = tile("name", Rect(x: 0, y: 0, width: 5, height: 1), in: form)
        let ok = tile("ok", Rect(x: 0, y: 4, width: 5, height: 1), in: form)
        let mail = tile("mail", Rect(x: 20, y: 0, width: 5, height: 1), in: form)
        form.focusOrder = [mail, name, ok]
        _ = tile("last", Rect(x: 0, y: 10, width: 5, height: 1), in: root)
        let order = (w.rootView.focusSystem?.focusableViews(in: w.rootView) ?? []).map(\.identifier)
        #expect(order == ["first", "mail", "name", "ok", "last"])
    }

    @Test func tabWithNothingFocusableIsUnhandled() {
        let w = window()
        guard case .unhandled = w.key(.tab) else { Issue.record("Tab should be unhandled"); return }
    }

    @Test func aClickOnAFocusableViewFocusesItAndAClickElsewhereKeepsFocus() {
        let w = window()
        let root = w.rootViewController!.view
        let field = Button(title: "Go", frame: Rect(x: 2, y: 2, width: 10, height: 1))
        root.addSubview(field)
        let label = Label("label", frame: Rect(x: 2, y: 5, width: 10, height: 1))
        root.addSubview(label)
        w.tap(at: Point(x: 4, y: 2))
        #expect(field.isFocused)
        w.tap(at: Point(x: 4, y: 5))
        #expect(field.isFocused)
    }

    @Test func aClickInsideAFocusableViewsSubviewFocusesThatView() {
        let w = window()
        let card = tile("card", Rect(x: 0, y: 0, width: 20, height: 5), in: w.rootViewController!.view)
        let inner = Label("inner", frame: Rect(x: 1, y: 1, width: 10, height: 1))
        card.addSubview(inner)
        w.tap(at: Point(x: 2, y: 1))
        #expect(card.isFocused)
    }

    @Test func theFocusedViewIsDrawnInItsFocusedStyle() {
        let w = window()
        let button = Button(title: "OK", frame: Rect(x: 0, y: 0, width: 6, height: 1))
        w.rootViewController!.view.addSubview(button)
        let before = w.compose()
        #expect(before.cell(at: Point(x: 2, y: 0))?.attributes == [])
        button.becomeFirstResponder()
        #expect(w.compose().cell(at: Point(x: 2, y: 0))?.attributes == [.bold, .underline])
        button.focusedAttributes = [.italic]
        #expect(w.compose().cell(at: Point(x: 2, y: 0))?.attributes == [.italic])
        button.resignFirstResponder()
        #expect(w.compose().cell(at: Point(x: 2, y: 0))?.attributes == [])
    }

    @Test func aFocusedButtonIsPressedByEnterOrSpace() {
        let w = window()
        let button = Button(title: "OK", frame: Rect(x: 0, y: 0, width: 6, height: 1))
        w.rootViewController!.view.addSubview(button)
        var pressed = 0
        button.addAction { _ in pressed += 1 }
        button.becomeFirstResponder()
        w.key(.enter)
        w.type(" ")
        #expect(pressed == 2)
    }
}
