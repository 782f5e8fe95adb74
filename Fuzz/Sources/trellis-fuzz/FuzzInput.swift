import Foundation

/// One input: libFuzzer's bytes, copied, and read from the front by the target that
/// needs a few choices (a split point, a kind) before the data proper.
struct FuzzInput {
    var bytes: ArraySlice<UInt8>

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = ArraySlice(UnsafeBufferPointer(start: data, count: size))
    }

    /// The next byte as a choice, or 0 when none is left.
    mutating func choice() -> UInt8 { bytes.popFirst() ?? 0 }
}

/// A broken contract: says which and stops the process so that libFuzzer keeps the
/// input (as a crash file) — an assertion that holds only in debug builds would not.
func contract(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    guard !condition() else { return }
    FileHandle.standardError.write(Data("trellis-fuzz: contract broken at \(file):\(line): \(message())\n".utf8))
    abort()
}
