import ArgumentParser
struct TransportBench: AsyncParsableCommand { static let configuration = CommandConfiguration(commandName: "transport"); func run() async throws {} }
struct TransportBenchPeer: AsyncParsableCommand { static let configuration = CommandConfiguration(commandName: "transport-peer", shouldDisplay: false); func run() async throws {} }
