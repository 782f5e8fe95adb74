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

    /// What a process saves, as its keeper (the parent's host) would receive it.
    private func saved(by body: () -> Void) async -> [UInt8]? {
        var kept: [UInt8]?
        StateRestoration.saver = { kept = $0 }
        defer { StateRestoration.saver = nil }
        body()
        let deadline = ContinuousClock.now + .seconds(10)
        while kept == nil, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        return kept
    }

    @Test func aSavedCountIsBackBeforeTheNewControllersViewLoads() async throws {
        let before = Counter(id: "Counter")
        let bytes = await saved {
            before.count = 3
            before.setNeedsStateSave()
            before.count = 4  // later in the same turn: the save takes what is there at its end
        }
        let state = try #require(bytes)
        // The process restarts: a new controller under the same id.
        try StateRestoration.received(state)
        let after = Counter(id: "Counter")
        _ = after.view
        #expect(after.countAtViewDidLoad == 4)
        // Given once: a later controller under that id starts fresh.
        let later = Counter(id: "Counter")
        _ = later.view
        #expect(later.countAtViewDidLoad == 0)
    }

    @Test func damagedOrOversizedStateIsRefusedWithTheReason() {
        #expect(throws: RestorationError.self) { try StateRestoration.received(Array("{not json".utf8)) }
        #expect(throws: RestorationError.damaged("\"no spaces allowed\" is not a controller id")) {
            try StateRestoration.received(Array(#"{"no spaces allowed":{}}"#.utf8))
        }
        #expect(throws: RestorationError.tooLarge(StateRestoration.maxBytes + 1)) {
            try StateRestoration.received([UInt8](repeating: 32, count: StateRestoration.maxBytes + 1))
        }
        // Nothing of it is kept.
        let fresh = Counter(id: "Counter")
        _ = fresh.view
        #expect(fresh.countAtViewDidLoad == 0)
    }
}
