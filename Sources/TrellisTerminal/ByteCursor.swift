/// Bytes written through a pointer into memory the caller owns, up to `capacity`: for the
/// writer's inner loops, where a checked `Array.append` per byte (a uniqueness and a
/// capacity check, out of line) was most of the cost of a frame that changes every cell
/// (`trellis bench compose`). The caller sizes the memory and copies `written` out
/// before the memory goes; a write past `capacity` stops the process rather than
/// corrupting memory.
struct ByteCursor: ByteSink {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    private(set) var count = 0

    init(_ memory: UnsafeMutableBufferPointer<UInt8>) {
        base = memory.baseAddress!
        capacity = memory.count
    }

    var room: Int { capacity - count }

    /// What was written since the last `removeAll`.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    mutating func append(_ byte: UInt8) {
        precondition(count < capacity, "ByteCursor full")
        base[count] = byte
        count += 1
    }

    /// Counts `n` more bytes, written at `base + count` by other means.
    mutating func advance(by n: Int) {
        precondition(n >= 0 && n <= room, "ByteCursor full")
        count += n
    }

    /// What was written since `start` (a `count` before now).
    func written(since start: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + start, count: count - start)
    }

    mutating func removeAll() {
        count = 0
    }
}
