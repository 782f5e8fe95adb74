import Foundation
import TrellisLog
import TrellisSession
import TrellisTransport
import TrellisWire

/// Before the supervisor stops a session's processes it asks the compositor to take the
/// tree off the screen, so every controller's disappearance callbacks run as when a
/// window closes. It asks over a link of its own to the control endpoint: there it is a
/// client like any other, under a client id (docs/PROTOCOL.md §1), and the request is a
/// line of its own log.
enum TreeDisappearance {
    /// The compositor asks the root for `willDisappear` and `didDisappear`, each under a
    /// link's 2 s request limit, before it answers; this covers both.
    static let limit = Duration.seconds(5)

    /// Asks the compositor of `run` and waits for its answer; nil when the tree
    /// disappeared, else why not.
    static func request(run: RunDirectory, log: RoutingLog) async -> String? {
        let loop = IOLoop(name: "supervisor")
        defer { loop.shutdown() }
        let id = ControllerID("\(ControllerID.clientPrefix)supervisor-\(getpid())")!
        let link: Link
        do {
            link = try await Link.connect(
                id: id, parent: .control, endpoint: try run.ipcEndpoint(ControllerID.control.rawValue), loop: loop,
                log: log)
        } catch {
            return "the control endpoint is not reachable: \(error)"
        }
        // The request goes after the link's hello, which the endpoint reads first.
        let why: String?
        do {
            let answer = try await link.request(.request(Request(name: "disappear")), timeout: limit)
            if case .reply(let r) = answer.message, r.status != .ok {
                why = "\(r.status): \(String(decoding: r.payload, as: UTF8.self))"
            } else {
                why = nil
            }
        } catch {
            why = "\(error)"
        }
        await link.close()
        return why
    }
}
