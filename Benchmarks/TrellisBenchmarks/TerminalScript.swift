import ArgumentParser
import Foundation

/// Runs one of the benchmarks' terminal-side scripts (Benchmarks/e2e/, in Python for
/// pyte) with the checkout's `.venv` interpreter unless `python` names another, and
/// prints through. `arguments` gets the checkout's root and this binary's path, which
/// the script runs the demo with (`trellis-app` and `trellis-compositor` beside it).
func runTerminalScript(_ script: String, python: String?, arguments: (_ root: String, _ trellis: String) -> [String]) throws {
    let root = try checkout(holding: script)
    let python = python ?? root + "/.venv/bin/python"
    guard FileManager.default.isExecutableFile(atPath: python) else {
        throw BenchError("\(python) not found: run ./deploy/setup (it installs pyte into .venv)")
    }
    let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let bin = URL(fileURLWithPath: me).deletingLastPathComponent().path
    for product in ["trellis-app", "trellis-compositor"] where !FileManager.default.isExecutableFile(atPath: bin + "/" + product) {
        throw BenchError("\(bin)/\(product) not found: build every product (swift build -c release)")
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: python)
    p.arguments = [root + "/" + script] + arguments(root, me)
    try p.run()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { throw ExitCode(p.terminationStatus) }
}
