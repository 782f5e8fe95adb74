import Foundation

/// Reads the routing logs of a session: every process's file, merged by monotonic time.
///
/// A line that is not a valid record is skipped and counted in `malformed` with its
/// file and line number; it never stops the rest from being read.
public struct LogReader {
    public struct Malformed: Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var reason: String
        public var description: String { "\(file):\(line): \(reason)" }
    }

    public let directory: String
    public private(set) var malformed: [Malformed] = []
    /// Per file: how many bytes have been consumed and how many lines seen.
    private var cursors: [String: (offset: UInt64, line: Int)] = [:]
    private let decoder = JSONDecoder()

    public init(directory: String) { self.directory = directory }

    /// The log files, sorted by name.
    public func files() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { "\(directory)/\($0)" }
    }

    /// Every complete line not read before, from every file, merged in time order.
    /// A trailing line without its newline is left for the next call (its writer
    /// may be in the middle of it).
    public mutating func readNew() -> [RoutingRecord] {
        var records: [(RoutingRecord, Int, Int)] = []  // record, file index, line: a stable tie-break
        for (fileIndex, file) in files().enumerated() {
            var cursor = cursors[file] ?? (0, 0)
            guard let handle = FileHandle(forReadingAtPath: file) else { continue }
            defer { try? handle.close() }
            try? handle.seek(toOffset: cursor.offset)
            let data = (try? handle.readToEnd()) ?? Data()
            guard let lastNewline = data.lastIndex(of: UInt8(ascii: "\n")) else { continue }
            let complete = data[data.startIndex...lastNewline]
            cursor.offset += UInt64(complete.count)
            for line in complete.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
                cursor.line += 1
                if line.isEmpty { continue }
                do {
                    records.append((try decoder.decode(RoutingRecord.self, from: Data(line)), fileIndex, cursor.line))
                } catch {
                    malformed.append(Malformed(file: file, line: cursor.line, reason: Self.describe(error)))
                }
            }
            cursors[file] = cursor
        }
        records.sort { a, b in
            if a.0.mono != b.0.mono { return a.0.mono < b.0.mono }
            if a.1 != b.1 { return a.1 < b.1 }
            return a.2 < b.2
        }
        return records.map(\.0)
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing field \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            "field \"\(c.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
        case DecodingError.dataCorrupted(let c):
            c.codingPath.isEmpty ? "not JSON" : "field \"\(c.codingPath.map(\.stringValue).joined(separator: "."))\": \(c.debugDescription)"
        default: "\(error)"
        }
    }
}

/// Which records to show. Empty sets match everything; values within one set are
/// alternatives, and the sets must all match.
public struct LogFilter: Sendable, Equatable {
    /// Matches a record whose source, target or writing end is one of these.
    public var controllers: Set<String> = []
    public var kinds: Set<String> = []
    /// Kinds never matched, whatever else matches.
    public var excludedKinds: Set<String> = []
    /// Kinds whose routine lines (sent, received, delivered) are not matched; what
    /// went wrong with them (lost, timeout, …) still is.
    public var quietKinds: Set<String> = []
    public var traces: Set<UInt64> = []
    public var outcomes: Set<RoutingRecord.Outcome> = []

    /// What `trellis logs` keeps quiet unless asked for by `--kind` or `--all`: the
    /// liveness traffic of every idle connection, which would otherwise be much of an
    /// idle tree's log and hide what happened (issue 21). A peer lost for want of
    /// heartbeats is no heartbeat: that line still shows.
    public static let quietByDefault: Set<String> = ["heartbeat"]

    static let routine: Set<RoutingRecord.Outcome> = [.sent, .received, .delivered]

    public init(
        controllers: Set<String> = [], kinds: Set<String> = [], excludedKinds: Set<String> = [], quietKinds: Set<String> = [],
        traces: Set<UInt64> = [], outcomes: Set<RoutingRecord.Outcome> = []
    ) {
        self.controllers = controllers
        self.kinds = kinds
        self.excludedKinds = excludedKinds
        self.quietKinds = quietKinds
        self.traces = traces
        self.outcomes = outcomes
    }

    /// The filter `trellis logs` applies: `excluding` left out, and the routine lines of
    /// `quietByDefault` too, unless `all` or `kinds` names them.
    public static func forPeople(
        controllers: Set<String> = [], kinds: Set<String> = [], excluding: Set<String> = [], all: Bool = false,
        traces: Set<UInt64> = [], outcomes: Set<RoutingRecord.Outcome> = []
    ) -> LogFilter {
        LogFilter(
            controllers: controllers, kinds: kinds, excludedKinds: excluding,
            quietKinds: all ? [] : quietByDefault.subtracting(kinds), traces: traces, outcomes: outcomes)
    }

    public func matches(_ r: RoutingRecord) -> Bool {
        (controllers.isEmpty || controllers.contains(r.source) || controllers.contains(r.target) || controllers.contains(r.at))
            && (kinds.isEmpty || kinds.contains(r.kind))
            && !excludedKinds.contains(r.kind)
            && !(quietKinds.contains(r.kind) && Self.routine.contains(r.outcome))
            && (traces.isEmpty || traces.contains(r.trace))
            && (outcomes.isEmpty || outcomes.contains(r.outcome))
    }
}

/// The readable table `trellis logs` prints for people.
public enum LogTable {
    public static let header = "TIME             HOST         AT           SRC → DST                    KIND            SEQ  TRACE             BYTES  OUTCOME    VIA     DETAIL / REASON"

    public static func row(_ r: RoutingRecord) -> String {
        let time = WallClock.format(r.wall).dropFirst(11).dropLast()  // HH:MM:SS.ffffff
        func col(_ s: String, _ w: Int) -> String { s.count >= w ? s : s + String(repeating: " ", count: w - s.count) }
        func right(_ s: String, _ w: Int) -> String { s.count >= w ? s : String(repeating: " ", count: w - s.count) + s }
        return [
            col(String(time), 16), col(r.host, 12), col(r.at, 12), col("\(r.source) → \(r.target)", 28),
            col(r.kind, 14), right(String(r.sequence), 4), col(TraceID.hex(r.trace), 16), right(String(r.bytes), 6),
            col(r.outcome.rawValue, 10), col(r.via, 7), [r.detail, r.reason].compactMap { $0 }.joined(separator: " — "),
        ].joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }
}
