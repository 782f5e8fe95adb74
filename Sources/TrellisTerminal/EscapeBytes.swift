// Appending escape sequences to a byte buffer without building strings: a frame is
// assembled once per display refresh, and formatting through String would cost more
// than the diff that decides what to write.

/// Where escape sequences and glyphs are written: a `[UInt8]`, or a `ByteCursor` for the
/// writer's inner loops. One set of encoders for both, specialized for each.
protocol ByteSink {
    mutating func append(_ byte: UInt8)
}

extension Array: ByteSink where Element == UInt8 {}

extension Array where Element == UInt8 {
    mutating func appendASCII(_ s: StaticString) {
        s.withUTF8Buffer { append(contentsOf: $0) }
    }
}

extension ByteSink {
    /// ESC [
    mutating func appendCSI() {
        append(0x1B)
        append(0x5B)
    }

    /// `n` (≥ 0) in decimal.
    mutating func appendDecimal(_ n: Int) {
        if n < 10 {
            append(UInt8(truncatingIfNeeded: 0x30 + n))
            return
        }
        if n < 100 {
            append(UInt8(truncatingIfNeeded: 0x30 + n / 10))
            append(UInt8(truncatingIfNeeded: 0x30 + n % 10))
            return
        }
        appendDecimal(n / 10)
        append(UInt8(truncatingIfNeeded: 0x30 + n % 10))
    }

    /// `scalar` in UTF-8; the caller has made sure it is a Unicode scalar value.
    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            append(UInt8(scalar))
        case 0x80..<0x800:
            append(UInt8(0xC0 | (scalar >> 6)))
            append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            append(UInt8(0xE0 | (scalar >> 12)))
            append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            append(UInt8(0xF0 | (scalar >> 18)))
            append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}

/// Decimal digits of `n` (≥ 0): the length of a number in a sequence, for costing moves
/// before choosing one.
func decimalDigits(_ n: Int) -> Int {
    n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10_000 ? 4 : 4 + decimalDigits(n / 10_000)
}

/// Bytes of `scalar` in UTF-8.
func utf8Length(_ scalar: UInt32) -> Int {
    scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4
}
