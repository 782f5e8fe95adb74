import ArgumentParser
import CZeroMQ
import Foundation
import TrellisTransport

/// The baseline process of `trellis bench scale`: starts, connects one DEALER to the
/// benchmark's endpoint, says hello, and then only waits — until its standard input
/// closes (or a signal ends it). Hidden: started by the benchmark.
struct ScalePeer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale-peer", abstract: "Helper process of 'trellis bench scale'.", shouldDisplay: false)

    @Option var endpoint: String

    func run() async throws {
        let socket = rawSocket(ZMQ_DEALER)
        zmq_connect(socket, endpoint)
        var hello = Array("\(getpid())".utf8)
        zmq_send(socket, &hello, hello.count, 0)
        await untilStdinCloses()
        zmq_close(socket)
    }
}
