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
        Reply(status: .ok, payload: Array(#"{"id": "Child", "className": "C", "placement": "process", "pid": 9, "appearance": "appeared", "traits": "t", "children": [], "presented": 3}"#.utf8)),
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

    /// Issue 23: `trellis tree` lists presented controllers under the controller their
    /// presentation covers, with the style they are shown in, nested presentations under
    /// the presented controller that made them.
    @Test func presentedControllersAreListedUnderTheirPresenterWithTheirStyle() {
        let root = ViewController(id: "Root")
        let window = Window(size: Size(width: 90, height: 24))
        window.rootViewController = root
        window.makeKeyAndVisible()
        let sheet = ViewController(id: "Sheet")
        sheet.modalPresentationStyle = .formSheet
        sheet.preferredContentSize = Size(width: 20, height: 6)
        root.present(sheet, animated: false)
        let alert = ViewController(id: "Over")
        alert.modalPresentationStyle = .overFullScreen
        sheet.present(alert, animated: false)
        let tree = root.describe()
        #expect(tree.presented?.map(\.id) == ["Sheet"])
        #expect(tree.find("Sheet")?.presentationStyle == "formSheet" && tree.find("Sheet")?.placement == "inline")
        #expect(tree.find("Sheet")?.frame == [35, 9, 20, 6])
        #expect(tree.find("Sheet")?.presented?.map(\.id) == ["Over"] && tree.find("Over")?.presentationStyle == "overFullScreen")
        #expect(tree.presentationStyle == nil && tree.placement == "process")
        let indents = tree.text().split(separator: "\n" as Character).map { line in line.count - line.drop { $0 == " " }.count }
        #expect(indents == [0, 2, 4])
        #expect(tree.text().contains("Sheet  ViewController  inline pid") && tree.text().contains("presented formSheet"))
        // What the reply carries, and a description from before presentations, decode.
        let json = try? JSONEncoder().encode(tree)
        #expect(json.flatMap { try? JSONDecoder().decode(ControllerDescription.self, from: $0) } == tree)
        root.dismiss(animated: false)
        #expect(root.describe().presented == nil && root.describe().find("Over") == nil)
    }
}
