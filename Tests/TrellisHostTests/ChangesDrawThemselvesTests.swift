import Foundation
import Synchronization
import Testing
import TrellisCanvas
import TrellisControllers
import TrellisHost
import TrellisLog
import TrellisTransport
import TrellisViews
import TrellisWire

/// Issue 21, "Changes draw themselves": a label a timer changes reaches the compositor
/// with no input and no host-specific call; and a timer due while a call waits for
/// another process fires after the call, never inside it (docs/LIFECYCLE.md, "Timers").
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ChangesDrawThemselvesTests {
    /// Counts up in its label every 50 ms, by its own timer.
    final class Ticker: ViewController {
        let label = Label()
        override func viewDidLoad() {
            super.viewDidLoad()
            view.addSubview(label)
            label.frame = Rect(x: 0, y: 0, width: 10, height: 1)
            scheduleTimer(after: .milliseconds(50), repeats: true) { [label] timer in label.text = "tick \(timer.fireCount)" }
        }
    }

    @Test func aLabelATimerChangesIsSentWithNoInput() async throws {
        let test = try PrivateRun("ticker")
        let run = test.run, log = test.log
        defer { withExtendedLifetime(test) {} }
        let parentLoop = IOLoop(name: "parent"), hostLoop = IOLoop(mainQueueNamed: "host")
        defer { parentLoop.shutdown(); hostLoop.shutdown() }
        let texts = Mutex<[String]>([])
        let screen = Mutex(Surface(size: Size(width: 10, height: 1)))
        let parent = try await Link.bind(
            id: "Parent", endpoint: try run.ipcEndpoint("p"), loop: parentLoop, log: log, options: .sharingTheTestsMainActor)
        let compositor = try await Link.bind(
            id: ChildHost.compositorID, endpoint: try run.ipcEndpoint("c"), loop: parentLoop, log: log,
            options: .sharingTheTestsMainActor,
            onMessage: { e, _ in
                if case .frame(let frame) = e.message,
                   let text = screen.withLock({ s in (try? s.apply(frame)).map { s.text.trimmingCharacters(in: .whitespacesAndNewlines) } }) {
                    texts.withLock { $0.append(text) }
                }
                return .handled
            })
        let host = try await ChildHost.start(
            controller: Ticker(id: "Child"), parent: "Parent", endpoint: try run.ipcEndpoint("p"),
            compositor: try run.ipcEndpoint("c"), loop: hostLoop, log: log, options: .sharingTheTestsMainActor)
        let deadline = ContinuousClock.now + .seconds(5)
        while await !parent.isConnected("Child"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        _ = try await parent.request(.containment(Containment(.willMove, parent: "Parent")), to: "Child")
        _ = try await parent.request(.containment(Containment(.didMove, parent: "Parent")), to: "Child")
        // The last message the parent sends: from here on, nothing comes in.
        _ = try await parent.request(.sizeTransition(SizeTransition(width: 10, height: 1)), to: "Child")
        let until = ContinuousClock.now + .seconds(20)
        while texts.withLock({ Set($0.filter { $0.hasPrefix("tick") }).count }) < 3, ContinuousClock.now < until {
            try await Task.sleep(for: .milliseconds(10))
        }
        let ticks = texts.withLock { Set($0.filter { $0.hasPrefix("tick") }) }
        #expect(ticks.count >= 3, "frames sent: \(texts.withLock { $0 })")
        await host.link.close()
        if let c = host.compositorLink { await c.close() }
        await parent.close()
        await compositor.close()
    }
}
