import ArgumentParser
import Foundation
import TrellisLog
import TrellisSession
import TrellisTransport
import TrellisWire

/// A protocol conformance peer: what a client in another language tests against.
struct PeerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peer",
        abstract: "Run a protocol conformance peer (see docs/PROTOCOL.md, \"Conformance peer\").",
        discussion: """
            With --bind it is a parent end: every message delivered to it is sent back to \
            its sender decoded and re-encoded (same kind and body, correlation = the \
            original sequence); a request is answered by a reply with status ok and the \
            same payload; acks follow the ack-requested flag. Malformed input gets error \
            replies. With --connect it is a child end that says hello and heartbeats. \
            It prints "ready ENDPOINT" once it is listening and runs until SIGINT, SIGTERM \
            or (with --stdin) standard input closes.
            """
    )

    @Option(help: "Endpoint to bind as a parent (ipc://…, tcp://…).") var bind: String?
    @Option(help: "Endpoint to connect to as a child.") var connect: String?
    @Option(help: "This peer's controller id.") var id = "peer"
    @Option(help: "With --connect: the parent's controller id.") var parent = "peer"
    @Option(help: "Session whose run directory holds the routing log (default: peer-PID).") var session: String?
    @Flag(help: "Stop when standard input closes.") var stdin = false

    func validate() throws {
        guard (bind == nil) != (connect == nil) else { throw ValidationError("give exactly one of --bind and --connect") }
        guard ControllerID(id) != nil else { throw ValidationError("invalid --id \(id.debugDescription): 1–32 of [A-Za-z0-9._:-]") }
        guard ControllerID(parent) != nil else { throw ValidationError("invalid --parent \(parent.debugDescription)") }
    }

    func run() async throws {
        let run = try RunDirectory.create(session: session ?? "peer-\(getpid())")
        let log = try RoutingLog(directory: run.logs, host: "peer-\(id)")
        let loop = IOLoop(name: "peer")
        let me = ControllerID(id)!
        let link: Link
        do {
            if let bind {
                link = try await Link.bind(id: me, endpoint: bind, loop: loop, log: log, onMessage: { Self.echo($0, $1) })
            } else {
                link = try await Link.connect(
                    id: me, parent: ControllerID(parent)!, endpoint: connect!, loop: loop, log: log, onMessage: { Self.echo($0, $1) })
            }
        } catch {
            throw ValidationError("\(error)")
        }
        FileHandle.standardOutput.write(Data("ready \(bind ?? connect!)\n".utf8))
        let why = await Termination.wait(orStdinClose: stdin)
        FileHandle.standardError.write(Data("trellis peer \(id): stopping (\(why))\n".utf8))
        await link.close()
        loop.shutdown()
        log.close()
    }

    /// Sends every delivered message back, proving it was decoded and can be re-encoded.
    static func echo(_ e: Envelope, _ link: isolated Link) -> Disposition {
        switch e.message {
        case .request(let r):
            link.reply(to: e, Reply(status: .ok, payload: r.payload))
        default:
            _ = try? link.send(e.message, to: e.source, trace: e.trace, correlation: e.sequence)
        }
        return .handled
    }
}
