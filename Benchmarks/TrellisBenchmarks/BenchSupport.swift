import CPlatform
import CZeroMQ
import Foundation
import TrellisTransport

/// A helper process of a benchmark: this same binary, run with a hidden
/// subcommand. It reports "ready" on stdout and stops when its stdin closes, so it
/// can never outlive the benchmark that started it.
final class BenchPeerProcess {
    private let process = Process()
    private let stdin = Pipe()
    private let stdout = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: Self.selfPath)
        process.arguments = arguments
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        let line = Self.readLine(stdout.fileHandleForReading)
        guard line.hasPrefix("ready") else {
            process.terminate()
            throw BenchError("helper \(arguments.joined(separator: " ")) did not start: \(line.debugDescription)")
        }
    }

    func stop() {
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    static var selfPath: String {
        #if os(Linux)
        if let p = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return p }
        #endif
        return CommandLine.arguments[0]
    }

    private static func readLine(_ h: FileHandle) -> String {
        var bytes: [UInt8] = []
        while true {
            let d = h.readData(ofLength: 1)
            guard let b = d.first, b != UInt8(ascii: "\n") else { break }
            bytes.append(b)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A helper that runs to its end: this binary with `arguments` (a hidden subcommand that
/// works, prints its figures and exits), its exit status and the lines it printed.
func runHelper(_ arguments: [String]) throws -> (status: Int32, lines: [Substring]) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: BenchPeerProcess.selfPath)
    p.arguments = arguments
    let out = Pipe()
    p.standardOutput = out
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    return (p.terminationStatus, text.split(separator: "\n"))
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// The context of the raw-libzmq baselines: their own I/O thread, left where the
/// kernel puts it, as in a plain libzmq program. Sharing the links' context would
/// have them share an I/O thread that follows the links' loop (`IOThreadPlacement`).
let rawContext = ZMQContext(followLoop: false)

/// A raw libzmq socket of the baselines' context, for the baselines and their
/// helper processes: linger 0, so closing it never waits on a peer that has gone.
func rawSocket(_ type: Int32) -> UnsafeMutableRawPointer {
    let socket = zmq_socket(rawContext.rawHandle, type)!
    var zero: Int32 = 0
    zmq_setsockopt(socket, ZMQ_LINGER, &zero, 4)
    return socket
}

/// Runs blocking work (a raw libzmq baseline) on its own thread, off Swift's pool.
func onDedicatedThread<T: Sendable>(_ name: String, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { c in
        Thread {
            trellis_thread_set_name(name)
            c.resume(returning: body())
        }.start()
    }
}

/// Returns when standard input closes: how a helper process learns that the benchmark
/// that started it is done (or has died), so it never outlives it.
func untilStdinCloses() async {
    await onDedicatedThread("stdin") {
        var b = [UInt8](repeating: 0, count: 64)
        while read(0, &b, b.count) > 0 {}
    }
}

/// The checkout this binary was built in (it holds .venv and the benchmarks' Python
/// halves), or the current directory's: the first of them, upward, holding `file`.
func checkout(holding file: String) throws -> String {
    var candidates = [FileManager.default.currentDirectoryPath]
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        while dir.path != "/" {
            candidates.append(dir.path)
            dir = dir.deletingLastPathComponent()
        }
    }
    guard let root = candidates.first(where: { FileManager.default.fileExists(atPath: $0 + "/" + file) }) else {
        throw BenchError("\(file) not found: run from the Trellis checkout")
    }
    return root
}

func figure(_ v: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", v) }
