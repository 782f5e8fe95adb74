import Synchronization

/// What a process-wide sink was told (`View.diagnostics` is one, Sendable since any
/// thread's tree reports to it): lines kept behind a lock, read by the test after.
public final class SaidLines: Sendable {
    private let kept = Mutex<[String]>([])

    public init() {}

    public func add(_ line: String) {
        kept.withLock { $0.append(line) }
    }

    public var lines: [String] { kept.withLock { $0 } }
}
