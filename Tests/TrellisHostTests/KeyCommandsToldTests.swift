import Foundation
import Testing
import TrellisControllers
import TrellisHost
import TrellisTransport
import TrellisSeeds
import TrellisViews
import TrellisWire

/// Issue 22, key commands across processes (docs/LIFECYCLE.md, "Keys"): a host tells its
/// parent what its tree offers a key whenever that changes, so the parent's footer and
/// `trellis keys` read what they were told and never ask — a child that hangs cannot hold
/// up a click elsewhere in its parent's window.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct KeyCommandsToldTests {
    static func decode(_ payload: [UInt8]) -> [String] {
        ((try? JSONDecoder().decode([KeyCommand.Summary].self, from: Data(payload))) ?? []).map { "\($0.key) \($0.title)" }
    }

    @Test func aHostTellsItsParentWhatItsTreeOffersWheneverThatChanges() async throws {
        let t = try await HostUnderTest("keys-told", controller: ParityForm(id: "Child"))
        try await t.adopt(size: SizeTransition(width: 30, height: 4))
        let name = ProcessChildRequest.keyCommandsChanged
        let window = t.host.window
        /// The last list the parent was told is what the tree offers now.
        func parentKnows(_ expected: [String]) async throws -> Int {
            let deadline = ContinuousClock.now + .seconds(5)
            while t.requests(named: name).last.map(Self.decode) != expected, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(t.requests(named: name).last.map(Self.decode) == expected)
            #expect(window.activeKeyCommands.map { "\($0.key) \($0.title)" } == expected)
            return t.requests(named: name).count
        }
        // Focus entering from the parent (Tab): the field's chain offers the form's F2.
        #expect(try await t.request(ProcessChildRequest.focusEnter, Array("first".utf8)) == .ok)
        let entered = try await parentKnows(["F2 Clear"])
        // Moving on inside the tree changes nothing it offers: not told again.
        #expect(try await t.request(ProcessChildRequest.focusEnter, Array("last".utf8)) == .ok)
        #expect(window.focusedView?.identifier == "c")
        #expect(t.requests(named: name).count == entered)
        // Focus left: nothing focused here offers nothing.
        #expect(try await t.request(ProcessChildRequest.focusResign) == .ok)
        let resigned = try await parentKnows([])
        // Adopted again — by a parent that lost this process and dropped what it was
        // told — it is told anew, though nothing changed here.
        _ = try await t.send(.containment(Containment(.willMove, parent: "Parent")))
        #expect(try await parentKnows([]) == resigned + 1)
        await t.close()
    }

    /// The parent's side: what a child says is kept on its proxy, where the parent's
    /// window reads it; a payload that is not a list of commands is refused with the
    /// reason, and what was kept stays; a child lost takes its commands with it.
    @Test func aParentKeepsWhatItsChildSaysAndRefusesGarbage() async throws {
        let test = try PrivateRun("keys-kept")
        defer { withExtendedLifetime(test) {} }
        let childLoop = IOLoop(name: "child"), loop = IOLoop(mainQueueNamed: "parent")
        defer { childLoop.shutdown(); loop.shutdown() }
        let endpoint = try test.run.ipcEndpoint("parent")
        let children = try await RemoteChildren.bind(
            parent: "Parent", endpoint: endpoint, loop: loop, log: test.log, options: .sharingTheTestsMainActor)
        let child = try await Link.connect(
            id: "Child", parent: "Parent", endpoint: endpoint, loop: childLoop, log: test.log, options: .sharingTheTestsMainActor)
        #expect(await children.waitForChild("Child"))
        let parent = ViewController(id: "Parent")
        let proxy = children.proxy(for: "Child")
        parent.addChild(proxy)
        proxy.didMove(toParent: parent)

        func say(_ payload: [UInt8]) async throws -> Reply? {
            let answer = try await child.request(.request(Request(name: ProcessChildRequest.keyCommandsChanged, payload: payload)))
            if case .reply(let r) = answer.message { return r }
            return nil
        }
        let clear = [KeyCommand.Summary(key: "F2", title: "Clear", owner: "Child")]
        #expect(try await say(Array(try JSONEncoder().encode(clear))) == Reply(status: .ok))
        #expect(proxy.activeKeyCommands == clear)
        for garbage in [[], Array("{".utf8), [0xFF, 0xFE], Array(#"[{"key":1}]"#.utf8), Array(repeating: UInt8(ascii: "["), count: 4096)] {
            let answer = try await say(garbage)
            #expect(answer?.status == .failed && String(decoding: answer?.payload ?? [], as: UTF8.self).contains("JSON list of key commands"))
        }
        #expect(proxy.activeKeyCommands == clear)
        // What the children's link does when it misses the child's heartbeats.
        proxy.childWasLost()
        #expect(proxy.activeKeyCommands.isEmpty)
        await child.close()
        await children.link.close()
    }
}
