/// Why a complete sequence decodes to nothing; it becomes an `.invalid` event's reason.
struct DecodeFailure: Error, Equatable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

extension UInt8 {
    /// `0x1b`, the form reasons use, so a report can be matched against a hex dump.
    var hex: String {
        let digits = Array("0123456789abcdef")
        return "0x" + String(digits[Int(self >> 4)]) + String(digits[Int(self & 0xF)])
    }
}
