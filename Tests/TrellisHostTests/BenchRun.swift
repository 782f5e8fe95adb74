import Foundation
import Testing

/// One `trellis bench NAME …` run from a test: its exit status, everything it printed,
/// and the figures of its `bench=NAME key=value …` line (empty when there is none).
struct BenchRun {
    let status: Int32
    let output: String
    let figures: [String: String]

    init(_ arguments: [String]) throws {
        let p = Process()
        p.executableURL = try BuiltProducts.binary("trellis")
        p.currentDirectoryURL = URL(fileURLWithPath: BuiltProducts.package)
        p.arguments = ["bench"] + arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.standardError
        try p.run()
        output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        status = p.terminationStatus
        var figures: [String: String] = [:]
        if let last = output.split(separator: "\n").last(where: { $0.hasPrefix("bench=\(arguments[0]) ") }) {
            for pair in last.split(separator: " ") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                if kv.count == 2 { figures[String(kv[0])] = String(kv[1]) }
            }
        }
        self.figures = figures
    }
}
