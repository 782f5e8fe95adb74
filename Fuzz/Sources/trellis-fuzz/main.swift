// trellis-fuzz TARGET [libFuzzer flags and corpus directories]
// trellis-fuzz --write-seeds DIRECTORY
//
// Every decoder's fuzz target in one binary: one link instead of five, and each
// target's coverage still comes only from its own decoder. deploy/fuzz runs them.
import CLibFuzzer
import Foundation

typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

let targets: KeyValuePairs<String, FuzzTarget> = [
    "wire": { fuzzWire(FuzzInput($0, $1)); return 0 },
    "lane": { fuzzLane(FuzzInput($0, $1)); return 0 },
    "control": { fuzzControl(FuzzInput($0, $1)); return 0 },
    "terminal": { fuzzTerminal(FuzzInput($0, $1)); return 0 },
    "scene": { fuzzScene(FuzzInput($0, $1)); return 0 },
    "view": { fuzzView(FuzzInput($0, $1)); return 0 },
    "keys": { fuzzKeys(FuzzInput($0, $1)); return 0 },
]

func usage() -> Never {
    let names = targets.map(\.key).joined(separator: ", ")
    FileHandle.standardError.write(Data("""
        usage: trellis-fuzz TARGET [libFuzzer flags] [CORPUS…]   (targets: \(names))
               trellis-fuzz --write-seeds DIRECTORY             (the codec-made seeds of wire, lane, control and keys)

        """.utf8))
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { usage() }
if arguments[1] == "--write-seeds" {
    guard arguments.count == 3 else { usage() }
    do { try writeSeeds(to: URL(fileURLWithPath: arguments[2])) } catch {
        FileHandle.standardError.write(Data("trellis-fuzz: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
guard let target = targets.first(where: { $0.key == arguments[1] })?.value else { usage() }

// libFuzzer reads its flags from argv, so the target's name leaves it first.
var argc = CommandLine.argc - 1
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
argv![1] = argv![0]
argv = argv! + 1
exit(LLVMFuzzerRunDriver(&argc, &argv, target))
