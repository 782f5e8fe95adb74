import Dispatch
import Foundation

/// Signals as events on the main actor: a Trellis process ends by its own orderly path
/// (flush the log, restore the terminal, stop the tree) instead of dying where it stands.
@MainActor
public enum SignalEvents {
    private static var sources: [any DispatchSourceSignal] = []

    /// Runs `body` on the main actor whenever one of `signals` arrives; their default
    /// actions are off from now on. The main actor may be busy: for what must happen
    /// however long that lasts, use `onOwnQueue(_:_:)`.
    public static func on(_ signals: [Int32], _ body: @escaping @MainActor () -> Void) {
        install(signals, queue: .main) { MainActor.assumeIsolated { body() } }
    }

    /// Runs `body` on a queue of its own whenever one of `signals` arrives, whatever the
    /// main thread is doing: a host's main thread can spend seconds in chained bounded
    /// waits for a child that never connects, and a stop must not wait for them.
    public static func onOwnQueue(_ signals: [Int32], _ body: @escaping @Sendable () -> Void) {
        install(signals, queue: DispatchQueue(label: "trellis-signals"), body)
    }

    private static func install(_ signals: [Int32], queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) {
        for sig in signals {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler(handler: handler)
            source.resume()
            sources.append(source)
        }
    }
}
