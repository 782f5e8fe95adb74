import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Traits": an override set with `setOverrideTraitCollection(_:forChild:)`
/// belongs to that one child object — released with it, dropped when it leaves the parent,
/// never applied to another controller.
@MainActor
@Suite struct TraitOverrideOwnershipTests {
    let light = TraitCollection(userInterfaceStyle: .light)

    func shownParent(_ journal: Journal) -> (Window, RecordingController) {
        let p = RecordingController("P", journal)
        let w = Window(size: Size(width: 80, height: 24))
        w.rootViewController = p
        w.makeKeyAndVisible()
        return (w, p)
    }

    func embed(_ child: ViewController, in parent: ViewController) {
        parent.addChild(child)
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)
    }

    func remove(_ child: ViewController) {
        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()
    }

    @Test func aRemovedChildLeavesItsOverrideBehind() {
        let journal = Journal()
        let (_, p) = shownParent(journal)
        let c = RecordingController("C", journal)
        embed(c, in: p)
        p.setOverrideTraitCollection(light, forChild: c)
        #expect(c.traitCollection.userInterfaceStyle == .light)

        remove(c)
        #expect(p.overrideTraitCollection(forChild: c) == nil)
        journal.clear()
        embed(c, in: p)                                  // back, without the override
        #expect(c.traitCollection.userInterfaceStyle == .dark)
        #expect(journal.only("C.trait") == ["C.traitCollectionDidChange"])
    }

    @Test func aChildMovedToAnotherParentDoesNotTakeTheOverrideAlong() {
        let journal = Journal()
        let (_, p) = shownParent(journal)
        let q = RecordingController("Q", journal)
        embed(q, in: p)
        let c = RecordingController("C", journal)
        embed(c, in: p)
        p.setOverrideTraitCollection(light, forChild: c)
        c.view.removeFromSuperview()
        q.addChild(c)                                    // addChild takes it from P first
        #expect(c.traitCollection.userInterfaceStyle == .dark)
        #expect(q.overrideTraitCollection(forChild: c) == nil && p.overrideTraitCollection(forChild: c) == nil)
    }

    /// Pages come and go all the time: a new child, even one allocated where a released one
    /// lived, starts with no override, and the released child is not kept alive by one.
    @Test func aNewChildNeverInheritsTheOverrideOfAReleasedOne() {
        let (_, p) = shownParent(Journal())
        for _ in 0..<200 {
            weak var released: ViewController?
            do {
                let old = ViewController()
                embed(old, in: p)
                p.setOverrideTraitCollection(light, forChild: old)
                remove(old)
                released = old
            }
            #expect(released == nil)
            let fresh = ViewController()
            embed(fresh, in: p)
            #expect(fresh.traitCollection.userInterfaceStyle == .dark)
            #expect(p.overrideTraitCollection(forChild: fresh) == nil)
            remove(fresh)
        }
    }
}
