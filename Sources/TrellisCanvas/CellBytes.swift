import TrellisWire

/// Cells compared as the bytes they are stored in, for the loops that compare thousands
/// of them (a compose's copy of each layer's rows): two loads and compares per cell where
/// `==` compares two colours case by case.
///
/// A cell keeps its scalar, its two colours and its attributes in its first 14 bytes.
/// The same bytes are the same cell; different bytes may still be equal cells (bytes a
/// colour's case leaves unused), so a caller treats them as "perhaps changed" and
/// whatever narrows changes later compares with `==`. Should the layout ever differ,
/// `comparable` is false and callers compare with `==`.
enum CellBytes {
    /// True when a cell's layout is the one `same` reads.
    static let comparable: Bool = MemoryLayout<Cell>.offset(of: \.scalar) == 0
        && MemoryLayout<Cell>.offset(of: \.foreground) == 4 && MemoryLayout<Cell>.offset(of: \.background) == 8
        && MemoryLayout<Cell>.offset(of: \.attributes) == 12 && MemoryLayout<CellColor>.size == 4
        && MemoryLayout<CellAttributes>.size == 2

    /// True when the cells at `a` and `b` are stored as the same bytes, so are equal.
    /// Only where `comparable`.
    @inline(__always)
    static func same(_ a: UnsafePointer<Cell>, _ b: UnsafePointer<Cell>) -> Bool {
        let p = UnsafeRawPointer(a), q = UnsafeRawPointer(b)
        return p.loadUnaligned(as: UInt64.self) == q.loadUnaligned(as: UInt64.self)
            && p.loadUnaligned(fromByteOffset: 8, as: UInt32.self) == q.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
            && p.loadUnaligned(fromByteOffset: 12, as: UInt16.self) == q.loadUnaligned(fromByteOffset: 12, as: UInt16.self)
    }
}
