import Testing
import TrellisTestSupport
import TrellisCanvas
@testable import TrellisViews

@MainActor
@Suite struct ConstraintLayoutTests {
    /// Issue 20: a tab switch swaps a child's root view in and out of the tab bar's view.
    /// No constraint of the tab bar's domain uses it, so the domain is laid out again but
    /// not solved again; once a constraint uses it, its leaving is solved again.
    @Test func aChildsRootViewNoConstraintUsesJoinsAndLeavesWithoutASolve() {
        let root = View(frame: Rect(x: 0, y: 0, width: 80, height: 24))
        let bar = View()
        root.addSubview(bar)
        bar.pinEdges(to: root, insets: 1)
        root.layoutIfNeeded()
        let solved = root.layoutEngine.solves
        let tab = View(frame: Rect(x: 0, y: 0, width: 78, height: 22))
        tab.owner = FakeOwner.shared
        root.addSubview(tab)
        #expect(root.needsLayout)
        root.layoutIfNeeded()
        tab.removeFromSuperview()
        #expect(root.needsLayout)
        root.layoutIfNeeded()
        root.addSubview(tab)
        root.layoutIfNeeded()
        #expect(root.layoutEngine.solves == solved)
        #expect(bar.frame == Rect(x: 1, y: 1, width: 78, height: 22))
        #expect(tab.frame == Rect(x: 0, y: 0, width: 78, height: 22))

        #expect(tab.constraintsNamingThis == 0, "left without a search for constraints: none names it")
        let pins = tab.pinEdges(to: root, insets: 2)
        root.layoutIfNeeded()
        #expect(tab.frame == Rect(x: 2, y: 2, width: 76, height: 20))
        #expect(tab.constraintsNamingThis == 4)
        let pinned = root.layoutEngine.solves
        tab.removeFromSuperview()
        // The constraints tying it to the tree it left go with it, as in UIKit.
        #expect(pins.allSatisfy { !$0.isActive })
        #expect(tab.constraintsNamingThis == 0)
        #expect(root.installedConstraints.count == 4 && root.installedConstraints.allSatisfy { $0.first.view === bar })
        root.layoutIfNeeded()
        #expect(root.layoutEngine.solves == pinned + 1)
    }

    /// A constraint crossing a view that needs no layout of its own: a controller's root
    /// view inside a plain view of the domain, pinned to the root, takes its solved frame
    /// as in UIKit, whose engine asks the superview of a view whose values changed for
    /// layout (docs/VIEWS.md, "Layout").
    @Test func aViewInsideAViewThatNeedsNoLayoutTakesItsSolvedFrame() {
        let root = View(frame: Rect(x: 0, y: 0, width: 80, height: 24))
        let plain = View(frame: Rect(x: 0, y: 1, width: 80, height: 22))
        root.addSubview(plain)
        root.layoutIfNeeded()
        let tab = View(frame: Rect(x: 0, y: 0, width: 78, height: 22))
        tab.owner = FakeOwner.shared
        plain.addSubview(tab)
        root.layoutIfNeeded()
        _ = tab.pinEdges(to: root, insets: 2)
        root.layoutIfNeeded()
        #expect(tab.frame == Rect(x: 2, y: 1, width: 76, height: 20))
    }

    /// S1-1: a container view pinned leading 2, trailing −2, bottom −3, with a height
    /// of one third of the root view's.
    @Test func s1_1_containerViewFollowsItsConstraints() {
        let root = View(frame: Rect(x: 0, y: 0, width: 80, height: 24))
        let container = View()
        container.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(container)
        LayoutConstraint.activate([
            container.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 2),
            container.trailingAnchor.constraint(equalTo: root.trailingAnchor, constant: -2),
            container.bottomAnchor.constraint(equalTo: root.bottomAnchor, constant: -3),
            container.heightAnchor.constraint(equalTo: root.heightAnchor, multiplier: 1.0 / 3),
        ])
        root.layoutIfNeeded()
        #expect(container.frame == Rect(x: 2, y: 13, width: 76, height: 8))

        // A resize re-solves from the constraints.
        root.frame = Rect(x: 0, y: 0, width: 120, height: 36)
        root.layoutIfNeeded()
        #expect(container.frame == Rect(x: 2, y: 21, width: 116, height: 12))
    }

    @Test func changingAConstantReSolves() {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))
        let v = View()
        root.addSubview(v)
        let edges = v.pinEdges(to: root, insets: 1)
        root.layoutIfNeeded()
        #expect(v.frame == Rect(x: 1, y: 1, width: 38, height: 8))
        edges[0].constant = 5
        root.layoutIfNeeded()
        #expect(v.frame == Rect(x: 5, y: 1, width: 34, height: 8))
    }

    /// UIKit breaks a constraint it cannot satisfy and says so; the rest still holds.
    @Test func unsatisfiableRequiredConstraintIsBrokenAndLogged() {
        let said = SaidLines()
        let saved = View.diagnostics
        View.diagnostics = { said.add($0) }
        defer { View.diagnostics = saved }
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))
        let v = View()
        v.identifier = "box"
        v.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(v)
        let width10 = v.widthAnchor.constraint(equalToConstant: 10)
        let width20 = v.widthAnchor.constraint(equalToConstant: 20)
        LayoutConstraint.activate([
            v.leadingAnchor.constraint(equalTo: root.leadingAnchor),
            v.topAnchor.constraint(equalTo: root.topAnchor),
            v.heightAnchor.constraint(equalToConstant: 1), width10, width20,
        ])
        root.layoutIfNeeded()
        // The one whose addition made the set unsatisfiable is broken: the later one.
        #expect(v.frame.width == 10)
        #expect(width20.isBroken && !width10.isBroken)
        #expect(said.lines.count == 1)
        #expect(said.lines.first?.contains("Unable to simultaneously satisfy constraints") == true)
        #expect(said.lines.first?.contains("box.width") == true)
    }

    @Test func lowerPriorityGivesWay() {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))
        let v = View()
        v.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(v)
        LayoutConstraint.activate([
            v.leadingAnchor.constraint(equalTo: root.leadingAnchor),
            v.topAnchor.constraint(equalTo: root.topAnchor),
            v.heightAnchor.constraint(equalToConstant: 1),
            v.widthAnchor.constraint(equalToConstant: 30).withPriority(250),
            v.widthAnchor.constraint(lessThanOrEqualTo: root.widthAnchor, multiplier: 0.5),
        ])
        root.layoutIfNeeded()
        #expect(v.frame.width == 20)
    }

    @Test func activatingWithoutACommonAncestorIsReportedNotCrashing() {
        let said = SaidLines()
        let saved = View.diagnostics
        View.diagnostics = { said.add($0) }
        defer { View.diagnostics = saved }
        let a = View(), b = View()
        let c = a.widthAnchor.constraint(equalTo: b.widthAnchor)
        c.isActive = true
        #expect(!c.isActive)
        #expect(said.lines.first?.contains("no common ancestor") == true)
    }

    /// S4-1: pages pinned in a content view pinned to the scroll view's edges, each page as
    /// wide as the scroll view: the content size follows from the constraints.
    @Test func s4_1_contentSizeFollowsFromConstraints() {
        let (root, scroll, pages) = pagedScrollView(pages: 4, dataCount: nil)
        root.layoutIfNeeded()
        #expect(scroll.frame == Rect(x: 0, y: 0, width: 40, height: 10))
        #expect(scroll.contentSize == Size(width: 160, height: 10))
        #expect(pages.map(\.frame.minX) == [0, 40, 80, 120])
        #expect(pages.allSatisfy { $0.frame.size == Size(width: 40, height: 10) })
    }

    /// S4-2: the width constraints of the pages have a lowered priority and the pages past
    /// the data get a required width of 0: three data items show three of four pages.
    @Test func s4_2_pagesBeyondTheDataCollapse() {
        let (root, scroll, pages) = pagedScrollView(pages: 4, dataCount: 3)
        root.layoutIfNeeded()
        #expect(scroll.contentSize.width == 120)
        #expect(pages.map(\.frame.width) == [40, 40, 40, 0])
        #expect(scroll.numberOfPages == 3)
    }

    /// Builds seed 004's constraint-only paging layout in a 40×10 root.
    private func pagedScrollView(pages count: Int, dataCount: Int?) -> (View, ScrollView, [View]) {
        let root = View(frame: Rect(x: 0, y: 0, width: 40, height: 10))
        let scroll = ScrollView()
        scroll.isPagingEnabled = true
        root.addSubview(scroll)
        scroll.pinEdges(to: root)
        let content = View()
        content.translatesAutoresizingMaskIntoConstraints = false
        scroll.addSubview(content)
        content.pinEdges(to: scroll)
        content.heightAnchor.constraint(equalTo: scroll.heightAnchor).isActive = true
        var pages: [View] = []
        for i in 0..<count {
            let page = View()
            page.identifier = "page\(i)"
            page.translatesAutoresizingMaskIntoConstraints = false
            content.addSubview(page)
            var c = [
                page.topAnchor.constraint(equalTo: content.topAnchor),
                page.bottomAnchor.constraint(equalTo: content.bottomAnchor),
                page.leadingAnchor.constraint(equalTo: pages.last?.trailingAnchor ?? content.leadingAnchor),
                page.widthAnchor.constraint(equalTo: scroll.widthAnchor).withPriority(dataCount == nil ? 1000 : 999),
            ]
            if let n = dataCount, i >= n { c.append(page.widthAnchor.constraint(equalToConstant: 0)) }
            LayoutConstraint.activate(c)
            pages.append(page)
        }
        pages.last!.trailingAnchor.constraint(equalTo: content.trailingAnchor).isActive = true
        return (root, scroll, pages)
    }
}

