/// Appends little-endian fields to a byte buffer.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Takes `buffer`'s storage, emptied, so a caller that hands the bytes back
    /// (`buffer = w.bytes`) encodes without allocating.
    init(reusing buffer: inout [UInt8], capacity: Int) {
        swap(&bytes, &buffer)
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(capacity)
    }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { bytes.append(UInt8(truncatingIfNeeded: v)); bytes.append(UInt8(truncatingIfNeeded: v >> 8)) }
    mutating func u32(_ v: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(shift))) }
    }
    mutating func u64(_ v: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift))) }
    }
    mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    mutating func bool(_ v: Bool) { u8(v ? 1 : 0) }
    mutating func raw<S: Sequence>(_ s: S) where S.Element == UInt8 { bytes.append(contentsOf: s) }

    /// An id padded with zero bytes to `ControllerID.maxLength`.
    mutating func paddedID(_ id: ControllerID) {
        let utf8 = id.rawValue.utf8
        bytes.append(contentsOf: utf8)
        bytes.append(contentsOf: repeatElement(0, count: ControllerID.maxLength - utf8.count))
    }
    /// An optional id as a u8 length and its bytes (length 0 = none).
    mutating func shortID(_ id: ControllerID?) {
        guard let id else { return u8(0) }
        u8(UInt8(id.rawValue.utf8.count))
        raw(id.rawValue.utf8)
    }
    mutating func rect(_ r: CellRect) { i32(r.x); i32(r.y); u16(r.width); u16(r.height) }
}
