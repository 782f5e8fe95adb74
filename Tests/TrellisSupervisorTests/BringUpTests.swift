import Testing
import TrellisLog
import TrellisTestSupport
@testable import TrellisSupervisor

/// Issue 21: "the tree is up" means every host said hello to the parent end it connects
/// to and to the compositor, and the root's first frame reached the compositor — a hello
/// to the compositor alone (all the actor-under-process bug's child ever said) is not up;
/// and when it is not, what is missing is said, host by host. Issue 20: a process child
/// of an actor connects to the actor's own parent end, on the actor's loop.
@Suite struct BringUpTests {
    static let scene = try! Scene.parse(ActorTapScene.yaml(leaf: "process"), file: "actor-parent.yaml")

    func line(_ kind: String, _ outcome: RoutingRecord.Outcome, from source: String, at: String) -> RoutingRecord {
        RoutingRecord(
            mono: 1, wall: 1, host: at, pid: 1, at: at, source: source, target: at, kind: kind, sequence: 1, trace: 0, bytes: 0,
            outcome: outcome, via: "ipc")
    }

    @Test func aChildUnderAnActorConnectsToTheActorsOwnParentEnd() {
        #expect(Self.scene.parentEnd(of: Self.scene.controllers[2]) == "Middle")
        #expect(Self.scene.parentEnd(of: Self.scene.controllers[1]) == "Root")
        #expect(Self.scene.parentEnd(of: Self.scene.root) == nil)
    }

    /// Under an inline controller in an actor's tree, the actor's loop runs the parent:
    /// its end is the one; an actor under an actor has a loop, and an end, of its own.
    @Test func theEndIsThatOfTheLoopThatRunsTheParent() throws {
        let scene = try Scene.parse("""
            controllers:
              - id: Root
                class: TapRoot
              - id: Middle
                class: TapMiddle
                parent: Root
                placement: actor
              - id: Pane
                class: TapRelay
                parent: Middle
                placement: inline
              - id: Inner
                class: TapMiddle
                parent: Middle
                placement: actor
              - id: Leaf
                class: TapLeaf
                parent: Pane
                placement: process
              - id: Deep
                class: TapLeaf
                parent: Inner
                placement: process
              - id: Beside
                class: TapLeaf
                parent: Root
                placement: process
            """, file: "ends.yaml")
        let end = { (id: String) in scene.parentEnd(of: scene.controllers.first { $0.id.rawValue == id }!) }
        #expect(end("Leaf") == "Middle" && end("Deep") == "Inner" && end("Beside") == "Root")
        var b = BringUp(scene: scene)
        b.read([line("hello", .received, from: "Leaf", at: "Root")])
        #expect(b.missing { _ in true }.contains("Leaf has not said hello to Middle, whose loop runs its parent Pane, an actor in process Root"))
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
        b.read([line("hello", .sent, from: "Leaf", at: "Leaf"), line("hello", .received, from: "Leaf", at: "Root")])
        #expect(!b.isUp, "a hello sent, or received at the process's end, not the actor's, is not one heard")
        b.read([line("hello", .received, from: "Leaf", at: "Middle")])
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
