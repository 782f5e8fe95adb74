/// A complete CSI sequence (`ESC [` … final byte) split into the parts ECMA-48 gives it.
struct ControlSequence: Equatable {
    /// A private marker (`<`, `=`, `>`, `?`) leading the parameters, as SGR mouse uses.
    var marker: UInt8?
    /// Parameters separated by `;`; `nil` where one was left empty, meaning its default.
    var parameters: [Int?]
    /// Each parameter's sub-parameters, the values after its first `:` (kitty's
    /// alternate keys, event type and text); `nil` where one is empty. No entries at
    /// all when no parameter has any, as in most sequences: read it through
    /// `self[subparameters:]`.
    private(set) var subparameters: [[Int?]]
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
        // One pass, allocating only what is kept: a mouse report is parsed twice per
        // click (issue 20), and splitting into arrays of slices cost a dozen allocations.
        // Each value is settled where it ends, in order, so the first bad value throws
        // as a split field by field would.
        var fields = 1, hasSubparameters = false
        for byte in parameterBytes {
            if byte == 0x3B { fields += 1 } else if byte == 0x3A { hasSubparameters = true }
        }
        parameters.reserveCapacity(fields)
        if hasSubparameters { subparameters = Array(repeating: [], count: fields) }
        var value = 0, digits = 0, bad: UInt8?, isSubparameter = false
        var index = parameterBytes.startIndex
        while true {
            let byte = index < parameterBytes.endIndex ? parameterBytes[index] : nil
            index += 1
            if let byte, byte != 0x3B, byte != 0x3A {
                if (0x30...0x39).contains(byte) {
                    if digits < Self.maxDigits { value = value * 10 + Int(byte - 0x30) }
                } else if bad == nil {
                    bad = byte
                }
                digits += 1
                continue
            }
            if let bad { throw DecodeFailure("byte \(bad.hex) inside a numeric parameter") }
            guard digits <= Self.maxDigits else { throw DecodeFailure("parameter longer than \(Self.maxDigits) digits") }
            let number = digits == 0 ? nil : value
            if isSubparameter { subparameters[parameters.count - 1].append(number) } else { parameters.append(number) }
            guard let byte else { return }
            isSubparameter = byte == 0x3A
            value = 0
            digits = 0
        }
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
