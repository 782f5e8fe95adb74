/// A mouse wheel notch at a cell: the `scroll` message (docs/PROTOCOL.md §5.2a).
///
/// It goes to the view under the pointer, not to the focus — which is why it is not
/// mapped to arrow keys — and from there up the responder chain to the first view that
/// can scroll that way (docs/LIFECYCLE.md, "The mouse wheel").
public struct ScrollInput: Sendable, Equatable, Hashable {
    /// -1 for wheel left, +1 for wheel right, otherwise 0 (notches; a client may send more).
    public var deltaX: Int32
    /// -1 for wheel up (toward the top of the content), +1 for wheel down, otherwise 0.
    public var deltaY: Int32
    public var modifiers: KeyModifiers
    /// 0-based cell of the pointer, in the receiver's coordinates.
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
