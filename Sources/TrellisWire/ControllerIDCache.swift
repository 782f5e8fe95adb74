/// The controller ids a link reads again and again, kept by their header field.
///
/// Every message names its source and target in 32-byte zero-padded fields, and a
/// link hears from a handful of peers. Checking the bytes and building the id's
/// string for each message was 7% of a receiving loop in `trellis bench
/// transport`; with this cache it is done once per id, and a message costs one
/// 32-byte comparison per field. A field found here is byte for byte a field that
/// was checked when it was added, so it is valid.
public struct ControllerIDCache: Sendable {
    /// A field's 32 bytes as four words: compared without a loop over bytes.
    private struct Field: Equatable, Sendable {
        var words: (UInt64, UInt64, UInt64, UInt64)

        static let unused = Field(words: (0, 0, 0, 0))

        init(words: (UInt64, UInt64, UInt64, UInt64)) { self.words = words }

        init(_ bytes: UnsafeRawBufferPointer) {
            words = (
                bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
        }

        static func == (a: Field, b: Field) -> Bool {
            (a.words.0 ^ b.words.0) | (a.words.1 ^ b.words.1) | (a.words.2 ^ b.words.2) | (a.words.3 ^ b.words.3) == 0
        }
    }

    /// Few entries, replaced in turn: a link's peers are few, and a search longer
    /// than a handful of comparisons would cost what it saves. The fields are kept
    /// apart from the ids so the search touches plain words only.
    private var fields: InlineArray<4, Field> = .init(repeating: .unused)
    private var ids: InlineArray<4, ControllerID?> = .init(repeating: nil)
    private var used = 0
    private var next = 0

    public init() {}

    /// The id in a header field (`ControllerID.maxLength` bytes: the id, then
    /// zeros), or nil when the field does not hold a valid id.
    public mutating func id(inField field: UnsafeRawBufferPointer) -> ControllerID? {
        precondition(field.count == ControllerID.maxLength, "a controller id field is \(ControllerID.maxLength) bytes")
        let key = Field(field)
        for i in 0..<used where fields[i] == key { return ids[i] }
        guard let id = Self.decode(field) else { return nil }
        fields[next] = key
        ids[next] = id
        used = max(used, next + 1)
        next = (next + 1) % fields.count
        return id
    }

    /// The bytes before the first zero, if they are an id and only zeros follow.
    static func decode(_ field: UnsafeRawBufferPointer) -> ControllerID? {
        field.withMemoryRebound(to: UInt8.self) { bytes -> ControllerID? in
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            guard bytes[end...].allSatisfy({ $0 == 0 }) else { return nil }
            return ControllerID(validating: UnsafeBufferPointer(rebasing: bytes[..<end]))
        }
    }
}
