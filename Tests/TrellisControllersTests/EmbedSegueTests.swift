import Testing
import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

/// Embed segues from scene files behave as a storyboard's container views do: the
/// child is made, prepared and embedded after the parent's `loadView` and before its
/// `viewDidLoad` (S1-1: Sub1 is inside the container view when the screen first shows).
@MainActor
@Suite struct EmbedSegueTests {
    final class Parent: RecordingController {
        var prepared: [String] = []
        override func loadView() {
            let root = View()
            let slot = View()
            slot.identifier = "slot"
            slot.frame = Rect(x: 2, y: 1, width: 10, height: 3)
            root.addSubview(slot)
            view = root
        }
        override func prepare(for segue: EmbedSegue, destination: ViewController) {
            journal.add("\(name).prepare(for: \(segue.destination))")
            prepared.append(destination.embedData["title"] ?? "-")
        }
    }

    func registry(_ journal: Journal) -> ControllerRegistry {
        let r = ControllerRegistry()
        r.register("Sub") { id in RecordingController(id.map { "\($0)" } ?? "Sub", journal) }
        return r
    }

    @Test func theChildIsEmbeddedBetweenLoadViewAndViewDidLoadWithItsData() {
        let journal = Journal()
        let parent = Parent("Main", journal)
        let reg = registry(journal)
        parent.setEmbedSegues([EmbedSegue(destination: "Sub1", className: "Sub", containerView: "slot", data: ["title": "one"])], registry: reg)
        parent.loadViewIfNeeded()
        #expect(journal.only("Main.", "Sub1.") == [
            "Main.init", "Sub1.init", "Main.prepare(for: Sub1)", "Sub1.willMove(toParent: Main)", "Sub1.viewDidLoad",
            "Sub1.didMove(toParent: Main)", "Main.viewDidLoad",
        ])
        #expect(parent.prepared == ["one"])
        let sub = parent.children.first
        #expect(sub?.id == "Sub1" && sub?.embedData == ["title": "one"])
        #expect(sub?.view.superview === parent.view.view(withIdentifier: "slot"))
    }

    @Test func aSegueThatCannotRunIsReportedAndTheParentStillLoads() {
        let journal = Journal()
        let parent = Parent("Main", journal)
        let reg = registry(journal)
        var failures: [String] = []
        reg.segueFailed = { id, segue, failure in failures.append("\(id)→\(segue.destination): \(failure)") }
        parent.setEmbedSegues([
            EmbedSegue(destination: "A", className: "Sub", containerView: "nowhere"),
            EmbedSegue(destination: "B", className: "Unknown", containerView: "slot"),
        ], registry: reg)
        parent.loadViewIfNeeded()
        #expect(failures == [
            "Main→A: the parent's view has no subview with identifier 'nowhere'",
            "Main→B: no controller class 'Unknown' is registered",
        ])
        #expect(parent.children.isEmpty && journal.entries.contains("Main.viewDidLoad"))
    }

    @Test func theRegistryConfiguresEveryControllerItMakes() {
        let journal = Journal()
        let reg = registry(journal)
        reg.configure = { $0.embedData = ["from": "scene"] }
        #expect(reg.make("Sub", id: "X")?.embedData == ["from": "scene"])
    }
}
