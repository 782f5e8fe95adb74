import Foundation
import TrellisHost
import TrellisLog
import TrellisSession

/// Keeps a host's objects alive for the process's life, and ends it on SIGTERM/SIGINT
/// after flushing the log — off the main thread, which may be waiting for a child
/// (docs/PROCESSES.md): nothing here needs it, and the rest of the process (the links,
/// the controllers) has nothing that must outlive it cleanly.
@MainActor
enum HostLifetime {
    static var host: ChildHost?
    static var children: RemoteChildren?
    static var actors: ActorChildren?

    static func keep(_ host: ChildHost, log: RoutingLog) {
        self.host = host
        SignalEvents.onOwnQueue([SIGTERM, SIGINT]) {
            log.flush()
            log.close()
            exit(0)
        }
    }
}
