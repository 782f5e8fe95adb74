import Foundation
import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// When a child's process answers again, its parent replays what it missed and brings
/// its appearance to where the parent has it — asked of the child, not assumed, so that
/// every will the child got ends in its did (LIFECYCLE.md; issue 19, finding 2: a child
/// stopped mid-disappearance got `viewWillDisappear` after SIGCONT, and never
/// `viewDidDisappear`).
@MainActor
@Suite struct ReplayStateTests {
    /// Records what the parent sends; answers `describe` with the child's appearance.
    final class ChildProcess: RemotePort {
        var appearance: AppearanceState
        var sent: [Message] = []
        init(_ appearance: AppearanceState) { self.appearance = appearance }
        func exchange(_ message: Message, from source: ControllerID, to target: ControllerID) -> Reply? {
            if case .request(let r) = message, r.name == ControllerDescription.request {
                let d = ControllerDescription(
                    id: target.rawValue, className: "X", placement: "process", pid: 1, appearance: appearance.rawValue,
                    traits: "t", frame: nil, unreachable: nil, children: [])
                return Reply(status: .ok, payload: Array(try! JSONEncoder().encode(d)))
            }
            sent.append(message)
            return nil
        }
    }

    func appearanceSent(_ port: ChildProcess) -> [Appearance.Phase] {
        port.sent.compactMap { if case .appearance(let a) = $0 { a.phase } else { nil } }
    }

    /// A parent in a window that has its child (hidden, or shown) as the parent sees it;
    /// the window is returned to keep the parent alive (a child's parent is weak).
    func child(shown: Bool, port: ChildProcess) -> (Window, RemoteController) {
        let parent = ViewController(id: "Parent")
        let window = Window(size: Size(width: 20, height: 5))
        window.rootViewController = parent
        if shown { window.makeKeyAndVisible() }
        let child = RemoteController(id: "Child", port: port)
        parent.addChild(child)
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)
        port.sent.removeAll()
        return (window, child)
    }

    @Test func aChildLeftDisappearingGetsItsDidDisappear() {
        let port = ChildProcess(.disappearing)
        let (window, child) = child(shown: false, port: port)
        defer { withExtendedLifetime(window) {} }
        #expect(child.appearanceState == .disappeared)
        child.replayState()
        #expect(appearanceSent(port) == [.didDisappear])
    }

    @Test func aRestartedChildOfAShownParentAppearsAgain() {
        let port = ChildProcess(.disappeared)
        let (window, child) = child(shown: true, port: port)
        defer { withExtendedLifetime(window) {} }
        #expect(child.appearanceState == .appeared)
        child.replayState()
        #expect(appearanceSent(port) == [.willAppear, .didAppear])
        // Containment and size came first, as a new child hears them.
        #expect(port.sent.first == .containment(Containment(.willMove, parent: "Parent")))
    }

    @Test func aChildThatMissedNothingIsSentNoAppearance() {
        let port = ChildProcess(.appeared)
        let (window, child) = child(shown: true, port: port)
        defer { withExtendedLifetime(window) {} }
        child.replayState()
        #expect(appearanceSent(port).isEmpty)
    }

    @Test(arguments: [
        (AppearanceState.appeared, AppearanceState.disappeared, [Appearance.Phase.willDisappear, .didDisappear]),
        (.appearing, .disappeared, [.willDisappear, .didDisappear]),
        (.disappearing, .appeared, [.willAppear, .didAppear]),
        (.appearing, .appeared, [.didAppear]),
        (.disappeared, .disappeared, []),
    ])
    func everyStateConvergesByLegalSteps(_ theirs: AppearanceState, _ ours: AppearanceState, _ expected: [Appearance.Phase]) {
        #expect(RemoteController.phases(from: theirs, to: ours) == expected)
    }
}
