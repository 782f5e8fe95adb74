/// The SGR bytes of pen changes already worked out in a frame, by the styles they go
/// from and to: a screen has few styles and changes between them thousands of times (the
/// redraw of `trellis bench compose` changes colour every six cells, among seven
/// colours), and working out a change — the pen, the shorter of two candidates — cost
/// more than the rest of the redraw.
///
/// A change is keyed by the `StyleBits` of both styles: equal bits are equal styles, so
/// equal keys are the same change and its bytes can be copied. A pen's transition depends
/// on nothing else (`Pen.appendTransition`). Direct-mapped, over memory the caller owns
/// for the frame; a change that maps to a taken slot replaces it.
struct PenTransitions {
    /// One change: from and to whose styles, the pen it leaves, and its bytes.
    struct Entry {
        var from: StyleBits
        var to: StyleBits
        var pen: Pen
        var penIsPlain: Bool
        /// Bytes in `bytes`; `unused` for a slot that holds no change.
        var count: UInt8
        var bytes: SGRBytes
    }

    /// The bytes of a change, up to `SGRBytes.capacity`; longer changes are not kept.
    typealias SGRBytes = (UInt64, UInt64, UInt64)
    static let capacity = MemoryLayout<SGRBytes>.size
    static let unused: UInt8 = .max
    /// Slots: a power of two, many more than the styles of most screens.
    static let slots = 64

    private let entries: UnsafeMutableBufferPointer<Entry>

    /// Over `memory` (`slots` entries), emptied.
    init(_ memory: UnsafeMutableBufferPointer<Entry>) {
        precondition(memory.count == Self.slots)
        entries = memory
        let empty = Entry(
            from: StyleBits(colors: 0, attributes: 0), to: StyleBits(colors: 0, attributes: 0), pen: .plain,
            penIsPlain: true, count: Self.unused, bytes: (0, 0, 0))
        memory.initialize(repeating: empty)
    }

    /// The kept change from `from` to `to`, if any.
    @inline(__always)
    func find(from: StyleBits, to: StyleBits) -> Entry? {
        let entry = entries[Self.slot(from, to)]
        guard entry.count != Self.unused, entry.from == from, entry.to == to else { return nil }
        return entry
    }

    /// Keeps the change from `from` to `to` that leaves `pen` and writes `bytes`, when
    /// they fit.
    func keep(from: StyleBits, to: StyleBits, pen: Pen, bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= Self.capacity else { return }
        var entry = Entry(
            from: from, to: to, pen: pen, penIsPlain: pen == .plain, count: UInt8(bytes.count), bytes: (0, 0, 0))
        withUnsafeMutableBytes(of: &entry.bytes) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        entries[Self.slot(from, to)] = entry
    }

    private static func slot(_ from: StyleBits, _ to: StyleBits) -> Int {
        var h = from.colors &* 0x9E37_79B9_7F4A_7C15
        h ^= (to.colors ^ UInt64(from.attributes) << 40 ^ UInt64(to.attributes) << 20) &* 0xC2B2_AE3D_27D4_EB4F
        return Int(truncatingIfNeeded: h >> 58) & (slots - 1)
    }
}

extension ByteCursor {
    /// Appends a kept change's bytes. Writes all of `bytes` and counts `count` of them, so
    /// it needs room for all.
    @inline(__always)
    mutating func append(_ bytes: PenTransitions.SGRBytes, count: UInt8) {
        precondition(room >= PenTransitions.capacity, "ByteCursor full")
        UnsafeMutableRawPointer(base + self.count).storeBytes(of: bytes, as: PenTransitions.SGRBytes.self)
        advance(by: Int(count))
    }
}
