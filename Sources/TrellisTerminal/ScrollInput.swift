import TrellisWire

/// A mouse wheel notch at a cell.
///
/// The wire protocol has no scroll message yet, and mapping the wheel to arrow keys
/// would send it to the focused controller instead of the view under the pointer, so
/// the parser reports it as it is and leaves the routing to the compositor.
public struct ScrollInput: Sendable, Equatable {
    /// -1 for wheel left, +1 for wheel right, otherwise 0.
    public var deltaX: Int32
    /// -1 for wheel up (toward the top of the content), +1 for wheel down, otherwise 0.
    public var deltaY: Int32
    public var modifiers: KeyModifiers
    /// 0-based cell of the pointer.
    public var x: Int32
    public var y: Int32
    /// Monotonic nanoseconds at which the report's first byte arrived.
    public var timestamp: UInt64
    public init(deltaX: Int32 = 0, deltaY: Int32 = 0, modifiers: KeyModifiers = [], x: Int32, y: Int32, timestamp: UInt64) {
        self.deltaX = deltaX
        self.deltaY = deltaY
        self.modifiers = modifiers
        self.x = x
        self.y = y
        self.timestamp = timestamp
    }
}
