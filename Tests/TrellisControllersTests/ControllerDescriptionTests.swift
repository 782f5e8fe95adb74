import Foundation
import Testing
import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

/// `trellis tree` splices in what each child process says of itself. What comes back
/// over the link is input like any other: an answer that is not a description, or no
/// answer, marks that child unreachable with the reason, and the rest of the tree
/// stands.
@MainActor
@Suite struct ControllerDescriptionTests {
    final class CannedPort: RemotePort {
        var answer: Reply?
        init(_ answer: Reply?) { self.answer = answer }
        func exchange(_ message: Message, from source: ControllerID, to target: ControllerID) -> Reply? {
            if case .request(let r) = message, r.name == ControllerDescription.request { return answer }
            return nil
        }
    }

    func parent(with port: CannedPort) -> ViewController {
        let parent = ViewController(id: "Parent")
        let child = RemoteController(id: "Child", port: port)
        parent.addChild(child)
        parent.view.addSubview(child.view)
        child.view.frame = Rect(x: 3, y: 2, width: 10, height: 4)
        child.didMove(toParent: parent)
        return parent
    }

    @Test func aChildProcessDescriptionIsSplicedAtItsViewport() {
        // What a child's host answers: its process's part of the tree, at its own 0,0.
        let inner = """
            {"id": "Child", "className": "ParityChild", "placement": "process", "pid": 99, "appearance": "appeared",
             "traits": "t", "frame": [0, 0, 10, 4], "children": [
               {"id": "Leaf", "className": "ParityLeaf", "placement": "inline", "pid": 99, "appearance": "appeared",
                "traits": "t", "frame": [1, 1, 4, 1], "children": []}]}
            """
        let tree = parent(with: CannedPort(Reply(status: .ok, payload: Array(inner.utf8)))).describe()
        #expect(tree.find("Child")?.pid == 99)
        #expect(tree.find("Leaf")?.frame == [4, 3, 4, 1])
    }

    @Test(arguments: [
        Reply(status: .ok, payload: Array("not json".utf8)),
        Reply(status: .ok, payload: [0xFF, 0x00, 0x7B]),
        Reply(status: .ok, payload: Array("{\"id\": 3}".utf8)),
        Reply(status: .failed, payload: Array("Child is not responding".utf8)),
    ])
    func garbageOrAFailureMarksTheChildUnreachable(_ answer: Reply) {
        let tree = parent(with: CannedPort(answer)).describe()
        let child = tree.find("Child")
        #expect(child?.unreachable != nil && child?.children.isEmpty == true)
        #expect(tree.id == "Parent" && tree.unreachable == nil)
    }

    @Test func noAnswerSaysSo() {
        #expect(parent(with: CannedPort(nil)).describe().find("Child")?.unreachable == "no answer")
    }
}
