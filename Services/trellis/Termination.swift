import Dispatch
import Foundation

/// Waits until the process is asked to stop: SIGINT, SIGTERM, or (optionally)
/// standard input closing — so a test harness that dies takes its peers with it.
enum Termination {
    static func wait(orStdinClose: Bool = false) async -> String {
        await withCheckedContinuation { (c: CheckedContinuation<String, Never>) in
            let once = Once(c)
            var sources: [DispatchSourceSignal] = []
            for sig in [SIGINT, SIGTERM] {
                signal(sig, SIG_IGN)
                let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
                s.setEventHandler { once.resume(sig == SIGINT ? "SIGINT" : "SIGTERM") }
                s.resume()
                sources.append(s)
            }
            if orStdinClose {
                Thread.detachNewThread {
                    var buf = [UInt8](repeating: 0, count: 256)
                    while read(0, &buf, buf.count) > 0 {}
                    once.resume("stdin closed")
                }
            }
            once.keep(sources)
        }
    }

    private final class Once: @unchecked Sendable {
        // @unchecked: all state is behind `lock`.
        private let lock = NSLock()
        private var continuation: CheckedContinuation<String, Never>?
        private var sources: [DispatchSourceSignal] = []
        init(_ c: CheckedContinuation<String, Never>) { continuation = c }
        func keep(_ s: [DispatchSourceSignal]) { lock.withLock { sources = s } }
        func resume(_ why: String) {
            let c = lock.withLock { () -> CheckedContinuation<String, Never>? in
                defer { continuation = nil }
                return continuation
            }
            c?.resume(returning: why)
        }
    }
}
