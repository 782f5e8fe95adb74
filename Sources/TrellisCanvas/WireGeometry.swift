import TrellisWire

// The wire carries rectangles as CellRect (fixed-width integers, for the codec); views
// and surfaces use Rect (Int, for arithmetic). These are the two crossings.

extension Rect {
    /// The same cells as a wire rectangle.
    public init(_ rect: CellRect) {
        self.init(x: Int(rect.x), y: Int(rect.y), width: Int(rect.width), height: Int(rect.height))
    }
}

extension CellRect {
    /// The same cells as a geometry rectangle; sizes beyond UInt16 are clamped to it, as
    /// no surface is that large.
    public init(_ rect: Rect) {
        self.init(
            x: Int32(clamping: rect.minX), y: Int32(clamping: rect.minY),
            width: UInt16(clamping: rect.width), height: UInt16(clamping: rect.height))
    }
}
