import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// Issue 22, "Scrolling": keys scroll the scroll view that has focus or holds it
/// (docs/VIEWS.md, "Scroll views").
@MainActor
@Suite struct ScrollKeysTests {
    func scrolled(paging: Bool = false) -> (Window, ScrollView) {
        let w = Window(size: Size(width: 40, height: 20))
        w.rootViewController = ViewController(id: "Reader")
        w.makeKeyAndVisible()
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        scroll.contentSize = paging ? Size(width: 30, height: 10) : Size(width: 10, height: 100)
        scroll.isPagingEnabled = paging
        w.rootViewController!.view.addSubview(scroll)
        return (w, scroll)
    }

    @Test func arrowsPagesHomeAndEndScrollTheFocusedScrollView() {
        let (w, scroll) = scrolled()
        #expect(w.key(.tab) == .handled)
        #expect(scroll.isFocused)
        w.key(.down)
        #expect(scroll.contentOffset.y == 1)
        w.key(.pageDown)
        #expect(scroll.contentOffset.y == 10)   // a screen less one row of context
        w.key(.end)
        #expect(scroll.contentOffset.y == 90)
        w.key(.up)
        #expect(scroll.contentOffset.y == 89)
        w.key(.home)
        #expect(scroll.contentOffset.y == 0)
    }

    @Test func atTheEdgeTheKeyGoesOnUpTheChain() {
        let (w, scroll) = scrolled()
        scroll.becomeFirstResponder()
        guard case .unhandled = w.key(.up) else { Issue.record("↑ at the top should go on"); return }
        w.key(.end)
        guard case .unhandled = w.key(.down) else { Issue.record("↓ at the bottom should go on"); return }
    }

    @Test func aKeyAFocusedViewInsideDoesNotTakeScrollsItsScrollView() {
        let (w, scroll) = scrolled()
        let button = Button(title: "OK", frame: Rect(x: 0, y: 0, width: 6, height: 1))
        scroll.addSubview(button)
        button.becomeFirstResponder()
        w.key(.pageDown)
        #expect(scroll.contentOffset.y == 9)
    }

    @Test func withPagingLeftAndRightTurnAPageAndSettleIt() {
        let (w, scroll) = scrolled(paging: true)
        var settled: [Int] = []
        scroll.didEndDragging = { settled.append($0.currentPage) }
        scroll.becomeFirstResponder()
        w.key(.right)
        w.key(.right)
        #expect(w.key(.right) != .handled)   // the last page
        w.key(.left)
        #expect(settled == [1, 2, 1])
    }
}
