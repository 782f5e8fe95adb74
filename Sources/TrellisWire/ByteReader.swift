/// Reads little-endian fields from a body, throwing `WireError` on truncation or
/// on a value outside the protocol.
///
/// It reads the body where it lies (a link's receive buffer, or an array's
/// storage), so it lives only as long as the call that made it: every value it
/// returns is a copy.
struct ByteReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0
    private let kind: MessageKind

    init(_ bytes: UnsafeRawBufferPointer, kind: MessageKind) {
        self.bytes = bytes
        self.kind = kind
    }

    var remaining: Int { bytes.count - offset }

    private mutating func take(_ n: Int, _ field: StaticString) throws -> Int {
        guard remaining >= n else {
            throw WireError(.truncatedBody, "\(kind.name) body ends at byte \(bytes.count) inside \(field)")
        }
        defer { offset += n }
        return offset
    }

    mutating func u8(_ field: StaticString) throws -> UInt8 { bytes[try take(1, field)] }
    mutating func u16(_ field: StaticString) throws -> UInt16 {
        UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: try take(2, field), as: UInt16.self))
    }
    mutating func u32(_ field: StaticString) throws -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: try take(4, field), as: UInt32.self))
    }
    mutating func u64(_ field: StaticString) throws -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: try take(8, field), as: UInt64.self))
    }
    mutating func i32(_ field: StaticString) throws -> Int32 { Int32(bitPattern: try u32(field)) }
    mutating func raw(_ n: Int, _ field: StaticString) throws -> [UInt8] { Array(try view(n, field)) }

    /// The next `n` bytes where they lie, valid as long as the reader.
    mutating func view(_ n: Int, _ field: StaticString) throws -> UnsafeRawBufferPointer {
        let at = try take(n, field)
        return UnsafeRawBufferPointer(rebasing: bytes[at..<at + n])
    }

    mutating func bool(_ field: StaticString) throws -> Bool {
        switch try u8(field) {
        case 0: return false
        case 1: return true
        case let v: throw invalid("\(field) is \(v), not 0 or 1")
        }
    }

    mutating func enumeration<E: RawRepresentable>(_: E.Type, _ field: StaticString) throws -> E
    where E.RawValue: FixedWidthInteger {
        let raw: E.RawValue
        switch E.RawValue.bitWidth {
        case 8: raw = E.RawValue(try u8(field))
        case 16: raw = E.RawValue(try u16(field))
        default: raw = E.RawValue(try u32(field))
        }
        guard let value = E(rawValue: raw) else { throw invalid("\(field) has no value \(raw)") }
        return value
    }

    mutating func utf8(length: Int, max: Int, _ field: StaticString) throws -> String {
        guard length <= max else { throw invalid("\(field) is \(length) bytes, more than \(max)") }
        // Validate in place, without the intermediate array and the generic
        // `String(validating:)` path (5% of a link's receive in the benchmark):
        // ASCII, the common case, needs no further check.
        let s = try view(length, field).withMemoryRebound(to: UInt8.self) { text -> String? in
            var ascii = true
            for b in text where b >= 0x80 { ascii = false; break }
            return ascii ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
        }
        guard let s else { throw invalid("\(field) is not UTF-8") }
        return s
    }

    mutating func shortID(_ field: StaticString) throws -> ControllerID? {
        let n = Int(try u8(field))
        if n == 0 { return nil }
        let id = try view(n, field).withMemoryRebound(to: UInt8.self) { ControllerID(validating: $0) }
        guard let id else { throw invalid("\(field) is not a valid controller id") }
        return id
    }

    mutating func rect(_ field: StaticString) throws -> CellRect {
        CellRect(x: try i32(field), y: try i32(field), width: try u16(field), height: try u16(field))
    }

    /// Called after the last field: trailing bytes mean the sender and we disagree.
    func finish() throws {
        guard remaining == 0 else { throw invalid("\(remaining) unexpected trailing bytes") }
    }

    func invalid(_ text: String) -> WireError { WireError(.invalidBody, "\(kind.name): \(text)") }
}
