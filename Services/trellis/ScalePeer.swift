import ArgumentParser
import CZeroMQ
import Foundation
import TrellisTransport

/// The baseline process of `trellis bench scale`: starts, connects one DEALER to the
/// benchmark's endpoint, says hello, and then only waits — until its standard input
/// closes or a signal comes. Hidden: started by the benchmark.
struct ScalePeer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale-peer", abstract: "Helper process of 'trellis bench scale'.", shouldDisplay: false)

    @Option var endpoint: String

    func run() async throws {
        let socket = zmq_socket(ZMQContext.shared.rawHandle, ZMQ_DEALER)!
        var zero: Int32 = 0
        zmq_setsockopt(socket, ZMQ_LINGER, &zero, 4)
        zmq_connect(socket, endpoint)
        var hello = Array("\(getpid())".utf8)
        zmq_send(socket, &hello, hello.count, 0)
        _ = await Termination.wait(orStdinClose: true)
        zmq_close(socket)
    }
}
