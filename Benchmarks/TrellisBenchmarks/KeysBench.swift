import ArgumentParser
import Foundation
import TrellisLog
import TrellisSession
import TrellisSeeds
import TrellisWire

/// `trellis bench keys` (issue 22): a key typed into a text field three processes down,
/// focused there by a click, until the compositor has composed the field's new text;
/// beside the raw libzmq path `trellis bench latency` uses, measured in the same run.
/// The workload is in docs/BENCHMARKS.md.
struct KeysBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "A key typed into a text field 3 processes down until composed, vs raw libzmq over the same hops.",
        discussion: """
            The session: trellis-compositor --headless and three trellis-app hosts, Root \
            (KeyRoot) -> Middle (KeyMiddle) -> Leaf (KeyLeaf), each in its own process, each \
            embedding the next one cell inside its edges; the leaf is a text field. A click on \
            the field focuses it (focus crosses the processes: the viewports above it are the \
            focused views of their windows). A key is a character sent to the compositor's \
            control endpoint, as the terminal's input is: the compositor hands it to Root, whose \
            focus is Middle's viewport, which hands it on to Leaf, whose field inserts it and \
            redraws; its frame goes to the compositor, which composes it. Timed: from just \
            before the client sends the key until the compositor finished the compose that \
            shows the new text (its await-text answer, on CLOCK_MONOTONIC). Every 20 keys the \
            field is emptied (Ctrl-U, untimed). Baseline: one 64-byte message over the same 5 \
            hops of raw libzmq through 4 relay processes, after the same 2 ms pause, before \
            each key. ratio = p50 / baseline p50; target <= 2.
            """
    )

    @Option(help: "Timed keys.") var keys = 500
    @Option(help: "Untimed keys first.") var warmup = 50

    /// What is typed, one character a key, before the field is emptied: each prefix is on
    /// the screen only once the key that ends it is shown, and none is in the placeholder.
    static let typed = Array("0123456789ABCDEFGHIJ")
    static let target = 2.0

    func validate() throws {
        guard keys >= 10, warmup >= 0 else { throw ValidationError("--keys must be at least 10, --warmup not negative") }
    }

    func run() async throws {
        print("keys benchmark: a key typed into a text field 3 processes down (compositor -> Root -> Middle -> Leaf -> compositor), "
            + "\(keys) keys after \(warmup) untimed; baseline raw libzmq over the same \(LatencyBench.hops) hops through 4 relay processes")
        let dir = try RunDirectory.create(session: "bench-keys-raw-\(getpid())")
        defer { try? FileManager.default.removeItem(atPath: dir.path) }
        let path = try RawRelayPath(run: dir, hops: LatencyBench.hops)
        defer { path.close() }
        let session = try BenchSession("keys")
        do {
            let samples = try await measure(session, beside: path)
            await session.stop(keep: false)
            report(samples)
        } catch {
            print("the benchmark failed; see the logs of the run directory")
            await session.stop(keep: true)
            throw error
        }
    }

    func measure(_ s: BenchSession, beside path: RawRelayPath) async throws -> (latency: [UInt64], raced: Int, path: [UInt64]) {
        try s.launchChain(root: "KeyRoot", middle: "KeyMiddle", leaf: "KeyLeaf")
        try await s.connect()
        _ = try await s.waitForTexts([KeyLeaf.placeholder], timeout: .seconds(20))
        guard let client = s.client else { throw BenchError("not connected") }

        // Focus, by a click on the field: Root at (0,0), Middle from (1,1), Leaf from (2,2).
        try await s.touch(.began, x: 4, y: 2)
        try await s.touch(.ended, x: 4, y: 2)

        var latency: [UInt64] = [], pathSamples: [UInt64] = []
        var raced = 0
        for k in 0..<(warmup + keys) {
            let n = k % Self.typed.count
            if n == 0 && k > 0 {
                // Emptied, untimed: the placeholder is back once the field has nothing.
                async let empty = BenchSession.awaitTexts([KeyLeaf.placeholder], on: client)
                try await Task.sleep(for: LatencyBench.pause)
                try await s.key(KeyPress(modifiers: .control, text: "u"))
                _ = try await empty
            }
            guard let sample = await path.measure(1, pause: LatencyBench.pause) else {
                throw BenchError("the raw relay path lost a message")
            }
            if k >= warmup { pathSamples += sample }
            // As in `latency`: the wait first, the key a pause later, so the compose that
            // shows it cannot come before the compositor waits for it.
            async let shown = BenchSession.awaitTexts([String(Self.typed[0...n])], on: client)
            try await Task.sleep(for: LatencyBench.pause)
            let t0 = try await s.key(KeyPress(text: String(Self.typed[n])))
            let composedAt = try await shown.composedAt
            guard k >= warmup else { continue }
            if let composedAt, composedAt > t0 { latency.append(composedAt - t0) } else { raced += 1 }
        }
        return (latency, raced, pathSamples)
    }

    func report(_ result: (latency: [UInt64], raced: Int, path: [UInt64])) {
        let ours = Percentiles(result.latency), path = Percentiles(result.path)
        let us = { (ns: Double) in figure(ns / 1000, 1) }
        let ratio = ours.p50 / path.p50
        print("  key -> leaf's field composed: p50 \(us(ours.p50)) us, p99 \(us(ours.p99)) us, min \(us(ours.min)) us "
            + "(\(result.latency.count) keys\(result.raced > 0 ? ", \(result.raced) not counted: composed before the wait began" : ""))")
        print("  baseline, raw libzmq over the same \(LatencyBench.hops) hops through 4 processes, each message after the same "
            + "pause: p50 \(us(path.p50)) us, p99 \(us(path.p99)) us (\(result.path.count) messages)")
        print("target: ratio <= \(figure(Self.target, 0)) (\(ratio <= Self.target ? "met" : "not met"))")
        print("bench=keys levels=3 hops=\(LatencyBench.hops) p50_us=\(us(ours.p50)) p99_us=\(us(ours.p99)) "
            + "baseline_us=\(us(path.p50)) baseline_p99_us=\(us(path.p99)) keys=\(result.latency.count) ratio=\(figure(ratio, 2))")
    }
}
