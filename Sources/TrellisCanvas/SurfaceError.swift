/// Why a surface refused a frame. The message names the frame, the damage rectangle and
/// the cell, because the sender is another process and this is all its author will see.
public struct SurfaceError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
