/// A complete CSI sequence (`ESC [` … final byte) split into the parts ECMA-48 gives it.
struct ControlSequence: Equatable {
    /// A private marker (`<`, `=`, `>`, `?`) leading the parameters, as SGR mouse uses.
    var marker: UInt8?
    /// Parameters separated by `;`; `nil` where one was left empty, meaning its default.
    var parameters: [Int?]
    /// Each parameter's sub-parameters, the values after its first `:` (kitty's
    /// alternate keys, event type and text); empty for most. `nil` where one is empty.
    var subparameters: [[Int?]]
    var intermediates: [UInt8]
    var final: UInt8

    /// Seven digits hold any Unicode scalar (CSI u) and any real coordinate, and keep
    /// the arithmetic far from overflow.
    static let maxDigits = 7

    /// Splits the bytes between `ESC [` and the final byte.
    init(body: ArraySlice<UInt8>, final: UInt8) throws(DecodeFailure) {
        self.final = final
        var bytes = body[...]
        if let first = bytes.first, (0x3C...0x3F).contains(first) {
            marker = first
            bytes = bytes.dropFirst()
        }
        let parameterEnd = bytes.firstIndex { !(0x30...0x3F).contains($0) } ?? bytes.endIndex
        intermediates = Array(bytes[parameterEnd...])
        if let stray = intermediates.first(where: { !(0x20...0x2F).contains($0) }) {
            throw DecodeFailure("parameter byte \(stray.hex) after an intermediate byte")
        }
        let parameterBytes = bytes[..<parameterEnd]
        parameters = []
        subparameters = []
        guard !parameterBytes.isEmpty else { return }
        for field in parameterBytes.split(separator: 0x3B, omittingEmptySubsequences: false) {
            let values = try field.split(separator: 0x3A, omittingEmptySubsequences: false).map(Self.number)
            parameters.append(values[0])
            subparameters.append(Array(values.dropFirst()))
        }
    }

    /// One decimal value; empty is `nil`, its default.
    private static func number(_ digits: ArraySlice<UInt8>) throws(DecodeFailure) -> Int? {
        if let bad = digits.first(where: { !(0x30...0x39).contains($0) }) {
            throw DecodeFailure("byte \(bad.hex) inside a numeric parameter")
        }
        guard digits.count <= maxDigits else {
            throw DecodeFailure("parameter longer than \(maxDigits) digits")
        }
        return digits.isEmpty ? nil : digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// The parameter at `index`, or `nil` when it is absent or empty.
    subscript(parameter index: Int) -> Int? {
        index < parameters.count ? parameters[index] : nil
    }

    /// The sub-parameters of the parameter at `index`; empty when it has none.
    subscript(subparameters index: Int) -> [Int?] {
        index < subparameters.count ? subparameters[index] : []
    }
}
