import Foundation
import Testing
import TrellisCanvas
import TrellisControllers

/// docs/LIFECYCLE.md, "State restoration" (issue 21): what a controller saves comes back
/// before its view loads in the restarted process; damaged or oversized state is refused
/// with the reason, and the controller starts fresh.
@MainActor
@Suite(.serialized) struct StateRestorationTests {
    final class Counter: ViewController {
        var count = 0
        var countAtViewDidLoad: Int?
        override func viewDidLoad() {
            super.viewDidLoad()
            countAtViewDidLoad = count
        }
        override func encodeRestorableState(with coder: RestorationCoder) { coder.encode(count, forKey: "count") }
        override func decodeRestorableState(with coder: RestorationCoder) { count = coder.decode(Int.self, forKey: "count") ?? 0 }
    }

    /// What a window saves, as its keeper (the parent's host) would receive it.
    private func saved(in window: Window, by body: () -> Void) async -> [UInt8]? {
        var kept: [UInt8]?
        window.stateRestoration.saver = { kept = $0 }
        defer { window.stateRestoration.saver = nil }
        body()
        let deadline = ContinuousClock.now + .seconds(10)
        while kept == nil, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        return kept
    }

    @Test func aSavedCountIsBackBeforeTheNewControllersViewLoads() async throws {
        let window = Window(size: Size(width: 20, height: 5))
        let before = Counter(id: "Counter")
        window.rootViewController = before
        let bytes = await saved(in: window) {
            before.count = 3
            before.setNeedsStateSave()
            before.count = 4  // later in the same turn: the save takes what is there at its end
        }
        let state = try #require(bytes)
        // The process restarts: a new window, a new controller under the same id.
        let restarted = Window(size: Size(width: 20, height: 5))
        try restarted.stateRestoration.received(state)
        let after = Counter(id: "Counter")
        restarted.rootViewController = after
        _ = after.view
        #expect(after.countAtViewDidLoad == 4)
        // Given once: a later controller under that id starts fresh.
        let later = Counter(id: "Counter")
        restarted.rootViewController = later
        _ = later.view
        #expect(later.countAtViewDidLoad == 0)
    }

    /// A host's windows on one loop share its state (a controller hosted apart): one save
    /// holds the controllers of both, and each gets its part back.
    @Test func theWindowsOfOneHostSaveAndRestoreAsOneWhole() async throws {
        let host = Window(size: Size(width: 20, height: 5))
        let actorChild = Window(size: Size(width: 20, height: 5), stateRestoration: host.stateRestoration)
        let (parent, child) = (Counter(id: "Parent"), Counter(id: "Child"))
        host.rootViewController = parent
        actorChild.rootViewController = child
        let bytes = await saved(in: host) {
            parent.count = 1
            child.count = 2
            parent.setNeedsStateSave()
            child.setNeedsStateSave()
        }
        let state = try #require(bytes)
        // The process restarts: both windows again, the state handed back once.
        let restarted = Window(size: Size(width: 20, height: 5))
        let restartedChild = Window(size: Size(width: 20, height: 5), stateRestoration: restarted.stateRestoration)
        try restarted.stateRestoration.received(state)
        let (parentAgain, childAgain) = (Counter(id: "Parent"), Counter(id: "Child"))
        restarted.rootViewController = parentAgain
        restartedChild.rootViewController = childAgain
        _ = (parentAgain.view, childAgain.view)
        #expect(parentAgain.countAtViewDidLoad == 1)
        #expect(childAgain.countAtViewDidLoad == 2)
    }

    /// A controller in no window has no one to keep its state, and says so rather than
    /// losing it silently.
    @Test func aControllerInNoWindowSaysItsStateIsNotSaved() {
        let alone = Counter(id: "Alone")
        let said = diagnostics { alone.setNeedsStateSave() }
        #expect(said == ["State restoration: Alone is in no window; its state is not saved."])
    }

    @Test func damagedOrOversizedStateIsRefusedWithTheReason() {
        let window = Window(size: Size(width: 20, height: 5))
        let restoration = window.stateRestoration
        #expect(throws: RestorationError.self) { try restoration.received(Array("{not json".utf8)) }
        #expect(throws: RestorationError.damaged("\"no spaces allowed\" is not a controller id")) {
            try restoration.received(Array(#"{"no spaces allowed":{}}"#.utf8))
        }
        #expect(throws: RestorationError.tooLarge(StateRestoration.maxBytes + 1)) {
            try restoration.received([UInt8](repeating: 32, count: StateRestoration.maxBytes + 1))
        }
        // Nothing of it is kept.
        let fresh = Counter(id: "Counter")
        window.rootViewController = fresh
        _ = fresh.view
        #expect(fresh.countAtViewDidLoad == 0)
    }

    /// An actor child's tree, on a loop of its own, tells its state over its link; its
    /// process keeps it as a part, saved in one whole with its own (`keep(part:of:)`). A
    /// part that is not a state is refused with the reason, and nothing of it is kept.
    @Test func aPartFromAnotherLoopIsSavedWithTheWholeAndGarbageIsRefused() async throws {
        let window = Window(size: Size(width: 20, height: 5))
        let own = Counter(id: "Own")
        window.rootViewController = own
        let restoration = window.stateRestoration
        #expect(throws: RestorationError.self) { try restoration.keep(part: Array("{not json".utf8), of: "Child") }
        #expect(throws: RestorationError.tooLarge(StateRestoration.maxBytes + 1)) {
            try restoration.keep(part: [UInt8](repeating: 32, count: StateRestoration.maxBytes + 1), of: "Child")
        }
        let bytes = await saved(in: window) {
            own.count = 1
            own.setNeedsStateSave()
            try? restoration.keep(part: Array(#"{"Far":{"count":"Mg=="}}"#.utf8), of: "Child")
        }
        let whole = try JSONDecoder().decode([String: [String: Data]].self, from: Data(try #require(bytes)))
        #expect(Set(whole.keys) == ["Own", "Far"], "the refused parts left nothing, the kept one is there")
        #expect(whole["Far"]?["count"] == Data("2".utf8))
    }
}
