/// The name of a controller: its address on every link and its ZeroMQ routing id.
///
/// 1…32 bytes of `[A-Za-z0-9._:-]`. The bound keeps the wire header fixed-size;
/// the alphabet keeps ids printable in logs and never starting with a zero byte,
/// which ZeroMQ reserves for generated routing ids.
public struct ControllerID: Hashable, Sendable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The largest id in bytes; the header reserves exactly this much per id.
    public static let maxLength = 32

    public let rawValue: String

    /// Validates `rawValue`; returns `nil` when it is empty, too long, or uses a
    /// character outside the alphabet.
    public init?(_ rawValue: String) {
        guard Self.isValid(rawValue.utf8) else { return nil }
        self.rawValue = rawValue
    }

    /// For literals in code: an invalid literal is a programming error.
    public init(stringLiteral value: String) {
        guard let id = ControllerID(value) else {
            preconditionFailure("invalid controller id literal \(value.debugDescription)")
        }
        self = id
    }

    /// Decodes an id from bytes; `nil` if they are not a valid id.
    public init?<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        // Every received message names two ids and a routing id, and this generic
        // initializer is not specialized across modules: validating through the
        // generic `Collection` cost 7% of a link's loop thread in the transport
        // benchmark. Contiguous bytes (arrays, slices) take the pointer path.
        if let id = bytes.withContiguousStorageIfAvailable({ ControllerID(validating: $0) }) {
            guard let id else { return nil }
            self = id
            return
        }
        guard Self.isValid(bytes) else { return nil }
        self.rawValue = String(decoding: bytes, as: UTF8.self)
    }

    /// Validates and decodes contiguous bytes without generic dispatch.
    public init?(validating bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty, bytes.count <= Self.maxLength else { return nil }
        for b in bytes where !Self.isAllowed(b) { return nil }
        self.rawValue = String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { rawValue }
    public static func < (a: ControllerID, b: ControllerID) -> Bool { a.rawValue < b.rawValue }

    static func isValid<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        guard !bytes.isEmpty, bytes.count <= maxLength else { return false }
        return bytes.allSatisfy(isAllowed)
    }

    static func isAllowed(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: ":"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
