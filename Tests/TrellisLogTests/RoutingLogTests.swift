import Foundation
import Testing
import TrellisLog
import TrellisSession

/// A private temporary root for run directories, removed afterwards.
final class TemporaryRoot {
    let path: String
    init() {
        path = NSTemporaryDirectory() + "trellis-logtest-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

func sample(_ i: Int, at: String = "root", outcome: RoutingRecord.Outcome = .delivered, reason: String? = nil) -> RoutingRecord {
    RoutingRecord(
        mono: UInt64(1_000 + i), wall: 1_795_000_000_123_456_000 + UInt64(i) * 1000, host: "host-\(at)", pid: 7, at: at,
        source: "root", target: "child\(i % 3)", kind: i % 2 == 0 ? "touch" : "traits", sequence: UInt64(i),
        trace: UInt64(i) << 40, bytes: 100 + i, outcome: outcome, via: "ipc", reason: reason)
}

@Suite("The routing log: one JSON line per message, merged across processes")
struct RoutingLogTests {
    @Test("a record's JSON line decodes back to the same record, awkward text included")
    func jsonRoundTrip() throws {
        let awkward = sample(3, outcome: .rejected, reason: "quote \" backslash \\ newline \n tab \t bell \u{7} 日本語")
        for record in [sample(0), sample(1, outcome: .sent), awkward] {
            var line: [UInt8] = []
            record.appendJSON(to: &line)
            #expect(line.last == UInt8(ascii: "\n"))
            #expect(!line.dropLast().contains(UInt8(ascii: "\n")), "one record, one line")
            let decoded = try JSONDecoder().decode(RoutingRecord.self, from: Data(line))
            #expect(decoded.mono == record.mono)
            #expect(decoded.wall / 1000 == record.wall / 1000, "wall time is kept to the microsecond")
            var same = decoded
            same.wall = record.wall
            #expect(same == record)
        }
    }

    @Test("a link's compact event is written as the same line as the full record it stands for")
    func messageEventLine() throws {
        let root = TemporaryRoot()
        let run = try RunDirectory.create(session: "events", root: root.path)
        let log = try RoutingLog(directory: run.logs, host: "host \"q\"")
        let origin = log.registerOrigin(at: "root", via: "ipc")
        #expect(log.registerOrigin(at: "root", via: "ipc") == origin, "an origin is registered once")
        let local = log.registerOrigin(at: "root", via: "local")
        #expect(local != origin)
        let events = [
            MessageEvent(mono: 5_000, sequence: 9, trace: 0xab, bytes: 150, source: "child", target: "root",
                         kind: .touch, outcome: .delivered, origin: origin),
            MessageEvent(mono: 6_000, sequence: 10, trace: 0, bytes: 0, source: "root", target: "child",
                         kind: .request, outcome: .dropped, origin: local, reason: "no such peer \"child\"\n"),
        ]
        let offset = Int64(bitPattern: WallClock.nanoseconds()) - Int64(bitPattern: MonotonicClock.nanoseconds())
        for e in events { log.record(e) }
        log.close()
        let text = try String(contentsOfFile: log.path!, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        for (line, e) in zip(lines, events) {
            let decoded = try JSONDecoder().decode(RoutingRecord.self, from: Data(line.utf8))
            let expected = RoutingRecord(
                mono: e.mono, wall: decoded.wall, host: "host \"q\"", at: "root", source: e.source.rawValue,
                target: e.target.rawValue, kind: e.kind.name, sequence: e.sequence, trace: e.trace, bytes: e.bytes,
                outcome: e.outcome, via: e.origin == origin ? "ipc" : "local", reason: e.reason)
            #expect(decoded == expected)
            var full: [UInt8] = []
            expected.appendJSON(to: &full)
            #expect(String(decoding: full, as: UTF8.self) == line + "\n", "byte for byte the full record's line")
            // The wall time is derived from the monotonic one, with the offset between
            // the clocks when the line was written (the wall clock is not stepped here).
            let derivedOffset = Int64(bitPattern: decoded.wall) - Int64(bitPattern: e.mono)
            #expect(abs(derivedOffset - offset) < 5_000_000, "within 5 ms of the clocks' offset")
        }
    }

    @Test("wall time is RFC 3339 UTC with microseconds, and parses back")
    func wallClockFormat() {
        let ns: UInt64 = 1_795_000_000_123_456_789
        let text = WallClock.format(ns)
        #expect(text == "2026-11-18T11:06:40.123456Z")
        #expect(WallClock.parse(text) == ns / 1000 * 1000)
        #expect(WallClock.parse("2026-13-01T00:00:00.000000Z") == nil)
        #expect(WallClock.parse("yesterday") == nil)
    }

    @Test("records written by two processes' logs merge by monotonic time; garbage lines are skipped and named")
    func mergeAndSkipGarbage() throws {
        let root = TemporaryRoot()
        let run = try RunDirectory.create(session: "merge", root: root.path)
        let a = try RoutingLog(directory: run.logs, host: "a")
        for i in stride(from: 0, to: 10, by: 2) { a.record(sample(i, at: "a")) }
        a.close()
        // A second "process": its own file, interleaved times, with garbage in the middle.
        var other: [UInt8] = []
        sample(1, at: "b").appendJSON(to: &other)
        other += Array("not json at all\n".utf8)
        other += Array("{\"mono_ns\":5}\n".utf8)
        sample(3, at: "b").appendJSON(to: &other)
        try Data(other).write(to: URL(fileURLWithPath: "\(run.logs)/b-99999.jsonl"))

        var reader = LogReader(directory: run.logs)
        let merged = reader.readNew()
        #expect(merged.map(\.sequence) == [0, 1, 2, 3, 4, 6, 8])
        #expect(reader.malformed.map(\.line) == [2, 3])
        #expect(reader.malformed.allSatisfy { $0.file.hasSuffix("b-99999.jsonl") })
        #expect(reader.malformed[1].reason.contains("missing field"))
        #expect(reader.readNew().isEmpty, "nothing new: nothing read twice")
    }

    @Test("a line still being written is left for the next read, like tail -f")
    func partialLineWaits() throws {
        let root = TemporaryRoot()
        let run = try RunDirectory.create(session: "follow", root: root.path)
        var line: [UInt8] = []
        sample(1).appendJSON(to: &line)
        let path = "\(run.logs)/c-1.jsonl"
        try Data(line.dropLast(10)).write(to: URL(fileURLWithPath: path))
        var reader = LogReader(directory: run.logs)
        #expect(reader.readNew().isEmpty)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(line.suffix(10)))
        try handle.close()
        #expect(reader.readNew().map(\.sequence) == [1])
        #expect(reader.malformed.isEmpty)
    }

    @Test("filters combine: controller, kind, trace, outcome")
    func filtering() {
        let records = (0..<12).map { sample($0, outcome: $0 % 4 == 0 ? .dropped : .delivered) }
        #expect(records.filter(LogFilter(controllers: ["child1"]).matches).map(\.sequence) == [1, 4, 7, 10])
        #expect(records.filter(LogFilter(kinds: ["traits"], outcomes: [.delivered]).matches).map(\.sequence) == [1, 3, 5, 7, 9, 11])
        #expect(records.filter(LogFilter(traces: [5 << 40]).matches).map(\.sequence) == [5])
        #expect(records.filter(LogFilter(controllers: ["child0"], outcomes: [.dropped]).matches).map(\.sequence) == [0])
    }

    /// Issue 21: `trellis logs` keeps heartbeats quiet unless asked, and can leave kinds out.
    @Test("heartbeats are quiet unless asked for; a peer lost for want of them is not; any kind can be left out")
    func quietAndExcludedKinds() {
        func line(_ i: Int, _ kind: String, _ outcome: RoutingRecord.Outcome) -> RoutingRecord {
            var r = sample(i, outcome: outcome)
            r.kind = kind
            return r
        }
        let records = [
            line(0, "heartbeat", .sent), line(1, "heartbeat", .received), line(2, "touch", .delivered),
            line(3, "heartbeat", .lost), line(4, "link", .event), line(5, "traits", .delivered),
        ]
        func shown(_ f: LogFilter) -> [UInt64] { records.filter(f.matches).map(\.sequence) }
        #expect(shown(.forPeople()) == [2, 3, 4, 5])
        #expect(shown(.forPeople(all: true)) == [0, 1, 2, 3, 4, 5])
        #expect(shown(.forPeople(kinds: ["heartbeat"])) == [0, 1, 3])
        #expect(shown(.forPeople(excluding: ["link", "traits"])) == [2, 3])
        #expect(shown(.forPeople(excluding: ["heartbeat"], all: true)) == [2, 4, 5])
    }

    /// Issue 21: every `trellis` call is a client; they share one log file, not one each.
    @Test("processes given the same log file append whole lines to it, each its own")
    func sharedLogFile() throws {
        let root = TemporaryRoot()
        let run = try RunDirectory.create(session: "shared", root: root.path)
        let first = try RoutingLog(directory: run.logs, host: "client", file: "clients.jsonl")
        let second = try RoutingLog(directory: run.logs, host: "client", file: "clients.jsonl")
        for i in 0..<200 {
            (i % 2 == 0 ? first : second).record(sample(i, at: "client-\(i % 2)"))
            if i % 50 == 0 { first.flush(); second.flush() }
        }
        first.close()
        second.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: run.logs) == ["clients.jsonl"])
        var reader = LogReader(directory: run.logs)
        #expect(reader.readNew().map(\.sequence).sorted() == (0..<200).map(UInt64.init))
        #expect(reader.malformed.isEmpty)
    }

    @Test("a shared log file is a plain name ending in .jsonl", arguments: ["", "../x.jsonl", "clients.log"])
    func sharedLogFileNames(_ name: String) throws {
        let root = TemporaryRoot()
        let run = try RunDirectory.create(session: "names", root: root.path)
        #expect(throws: RunDirectoryError.self) { _ = try RoutingLog(directory: run.logs, host: "client", file: name) }
    }

    @Test("flush puts every queued record in the file; close stops taking more")
    func flushAndClose() throws {
        let root = TemporaryRoot()
        let run = try RunDirectory.create(session: "flush", root: root.path)
        let log = try RoutingLog(directory: run.logs, host: "f")
        for i in 0..<5_000 { log.record(sample(i)) }
        log.flush()
        var reader = LogReader(directory: run.logs)
        #expect(reader.readNew().count == 5_000)
        log.close()
        log.record(sample(9))
        #expect(reader.readNew().isEmpty)
    }

    /// Issue 20: while lines keep coming the writer waits for them interval to interval,
    /// and a record wakes it only once it has gone back to sleep. In every one of its
    /// states — gathering, lingering after a batch, asleep — a record reaches the file
    /// without anyone flushing.
    @Test("lines reach the file without a flush, whether the writer gathers, lingers or sleeps")
    func linesArriveWithoutFlush() throws {
        let root = TemporaryRoot()
        let run = try RunDirectory.create(session: "linger", root: root.path)
        let log = try RoutingLog(directory: run.logs, host: "l")
        defer { log.close() }
        var reader = LogReader(directory: run.logs)
        var seen: [UInt64] = []
        func waitForLines(_ count: Int) {
            let deadline = ContinuousClock.now + .seconds(20)
            while seen.count < count && ContinuousClock.now < deadline {
                seen += reader.readNew().map(\.sequence)
                usleep(2_000)
            }
        }
        log.record(sample(1))  // wakes the sleeping writer, which gathers a batch
        waitForLines(1)
        log.record(sample(2))  // just after a batch: the writer lingers, nobody wakes it
        waitForLines(2)
        usleep(300_000)  // several intervals with nothing: asleep again
        log.record(sample(3))
        waitForLines(3)
        #expect(seen == [1, 2, 3])
    }
}
