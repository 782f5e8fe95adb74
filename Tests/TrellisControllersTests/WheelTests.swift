import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// Issue 22, "Scrolling": the mouse wheel scrolls the scroll view under the pointer — not
/// the focused one — and at its edge the wheel goes on up the chain to an outer one
/// (docs/LIFECYCLE.md, "The mouse wheel").
@MainActor
@Suite struct WheelTests {
    /// An outer scroll view 20 rows tall over 60 rows of content, holding an inner one
    /// of 5 rows over 20, and a focused button beside it that the wheel must not reach.
    func nested() -> (Window, outer: ScrollView, inner: ScrollView) {
        let w = Window(size: Size(width: 40, height: 20))
        w.rootViewController = ViewController(id: "Reader")
        w.makeKeyAndVisible()
        let outer = ScrollView(frame: Rect(x: 0, y: 0, width: 30, height: 20))
        outer.contentSize = Size(width: 30, height: 60)
        let inner = ScrollView(frame: Rect(x: 0, y: 0, width: 10, height: 5))
        inner.contentSize = Size(width: 10, height: 20)
        outer.addSubview(inner)
        w.rootViewController!.view.addSubview(outer)
        let button = Button(title: "OK", frame: Rect(x: 32, y: 0, width: 6, height: 1))
        w.rootViewController!.view.addSubview(button)
        button.becomeFirstResponder()
        return (w, outer, inner)
    }

    @Test func aNotchScrollsTheViewUnderThePointerThreeLines() {
        let (w, outer, inner) = nested()
        #expect(w.scroll(deltaY: 1, at: Point(x: 2, y: 2)))
        #expect(inner.contentOffset.y == ScrollView.wheelStep && outer.contentOffset.y == 0)
        #expect(w.scroll(deltaY: 2, at: Point(x: 20, y: 10)))
        #expect(outer.contentOffset.y == 2 * ScrollView.wheelStep)
    }

    @Test func atTheInnerEdgeTheWheelScrollsTheOuterView() {
        let (w, outer, inner) = nested()
        // Up at the inner view's top: nothing to scroll there, so the outer one would —
        // but it is at its top too, so nothing does.
        #expect(!w.scroll(deltaY: -1, at: Point(x: 2, y: 2)))
        for _ in 0..<5 { w.scroll(deltaY: 1, at: Point(x: 2, y: 2)) }
        #expect(inner.contentOffset.y == 15 && outer.contentOffset.y == 0)   // its bottom: 20 rows, 5 shown
        // One more notch down over the inner view: it cannot, so the outer one does.
        #expect(w.scroll(deltaY: 1, at: Point(x: 2, y: 2)))
        #expect(inner.contentOffset.y == 15 && outer.contentOffset.y == ScrollView.wheelStep)
    }

    @Test func overNothingThatScrollsTheWheelIsUnhandled() {
        let (w, _, _) = nested()
        #expect(!w.scroll(deltaY: 1, at: Point(x: 35, y: 10)))
    }
}
