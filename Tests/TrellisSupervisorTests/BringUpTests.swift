import Testing
import TrellisLog
@testable import TrellisSupervisor

/// Issue 21: "the tree is up" means every host said hello to the process that runs its
/// parent and to the compositor, and the root's first frame reached the compositor —
/// a hello to the compositor alone (all the actor-under-process bug's child ever said)
/// is not up; and when it is not, what is missing is said, host by host.
@Suite struct BringUpTests {
    static let scene = try! Scene.parse("""
        controllers:
          - id: Root
            class: TapRoot
          - id: Middle
            class: TapMiddle
            parent: Root
            placement: actor
          - id: Leaf
            class: TapLeaf
            parent: Middle
            placement: process
        """, file: "actor-parent.yaml")

    func line(_ kind: String, _ outcome: RoutingRecord.Outcome, from source: String, at: String) -> RoutingRecord {
        RoutingRecord(
            mono: 1, wall: 1, host: at, pid: 1, at: at, source: source, target: at, kind: kind, sequence: 1, trace: 0, bytes: 0,
            outcome: outcome, via: "ipc")
    }

    @Test func aChildUnderAnActorConnectsToItsParentsProcess() {
        #expect(Self.scene.parentProcess(of: Self.scene.controllers[2]) == "Root")
        #expect(Self.scene.parentProcess(of: Self.scene.root) == nil)
    }

    @Test func upWhenEveryHostGreetedItsParentsProcessAndTheCompositorAndTheRootDrew() {
        var b = BringUp(scene: Self.scene)
        b.read([
            line("hello", .received, from: "Root", at: "compositor"),
            line("hello", .received, from: "Leaf", at: "compositor"),
            line("frame", .delivered, from: "Root", at: "compositor"),
        ])
        #expect(!b.isUp, "Leaf's parent never heard from it")
        #expect(b.missing { _ in true } == ["Leaf has not said hello to its parent Middle, an actor in process Root"])
        b.read([line("hello", .sent, from: "Leaf", at: "Leaf"), line("hello", .received, from: "Leaf", at: "Middle")])
        #expect(!b.isUp, "a hello sent, or received where nobody serves Middle's children, is not one heard")
        b.read([line("hello", .received, from: "Leaf", at: "Root")])
        #expect(b.isUp)
    }

    @Test func whatIsMissingNamesEachHostAndWhy() {
        var b = BringUp(scene: Self.scene)
        b.read([line("hello", .received, from: "Root", at: "compositor")])
        #expect(b.missing { $0 != "Leaf" } == [
            "Leaf is not running (what it printed: output/Leaf.log)",
            "the compositor has no frame from the root Root yet",
        ])
        #expect(b.missing { _ in true } == [
            "Leaf has not said hello to its parent Middle, an actor in process Root",
            "Leaf has not said hello to the compositor",
            "the compositor has no frame from the root Root yet",
        ])
    }
}
