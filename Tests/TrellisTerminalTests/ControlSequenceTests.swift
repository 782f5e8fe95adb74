import SeededRandom
import Testing
import TrellisWire

@testable import TrellisTerminal

/// A control sequence's parameters are read in one pass (issue 20: a click's two mouse
/// reports were split into a dozen arrays each). The rule it keeps is the plain one
/// below: fields at `;`, values at `:`, a field's first value its parameter and the rest
/// its sub-parameters, each value checked in order, so the first bad one is the error.
@Suite("Terminal input: control sequence parameters")
struct ControlSequenceTests {
    @Test(arguments: [
        "", "1", "0;1;1", "35;80;24", ";", ";;5", "1;", "97:65;5:3", ":5", "1::2;;:", "0000007", "12345678",
        "1;2<3", "1<;12345678", "12345678;<", "?1", "1:2:3:4;5:6", "9999999;99999999:1", "=;>", "::",
    ])
    func onePassReadsAsSplittingDoes(_ body: String) {
        expectSameAsSplitting(Array(body.utf8))
    }

    @Test func randomParameterBytesReadAsSplittingDoes() {
        // Parameter bytes only (0x30-0x3F): digits, both separators and the four bytes
        // not allowed inside a value, weighted to digits so that some values run past
        // the seven-digit limit.
        let alphabet = Array("0123456789;:<=>?".utf8) + Array(repeating: UInt8(ascii: "7"), count: 8)
        var generator = SplitMix64(seed: 20)
        for _ in 0..<5_000 {
            let body = (0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            expectSameAsSplitting(body)
        }
    }

    @Test func subparametersAreEmptyForEveryParameterWithoutAColon() throws {
        let sequence = try ControlSequence(body: Array("1;2;3".utf8)[...], final: UInt8(ascii: "A"))
        #expect(sequence.parameters == [1, 2, 3])
        #expect((0..<4).map { sequence[subparameters: $0] } == [[], [], [], []])
    }

    private func expectSameAsSplitting(_ body: [UInt8]) {
        let expected = Self.splitting(body)
        do throws(DecodeFailure) {
            let sequence = try ControlSequence(body: body[...], final: UInt8(ascii: "A"))
            let read = Parts(
                parameters: sequence.parameters,
                subparameters: sequence.parameters.indices.map { sequence[subparameters: $0] })
            #expect(Result<Parts, Reason>.success(read) == expected, "\(String(decoding: body, as: UTF8.self))")
        } catch {
            #expect(Result<Parts, Reason>.failure(Reason(text: error.reason)) == expected, "\(String(decoding: body, as: UTF8.self))")
        }
    }

    private struct Parts: Equatable { var parameters: [Int?]; var subparameters: [[Int?]] }

    private struct Reason: Error, Equatable { let text: String }

    /// The rule, written the plain way (the parse before issue 20 split exactly so).
    private static func splitting(_ body: [UInt8]) -> Result<Parts, Reason> {
        var bytes = body[...]
        if let first = bytes.first, (0x3C...0x3F).contains(first) { bytes = bytes.dropFirst() }
        var parts = Parts(parameters: [], subparameters: [])
        guard !bytes.isEmpty else { return .success(parts) }
        for field in bytes.split(separator: 0x3B, omittingEmptySubsequences: false) {
            var values: [Int?] = []
            for digits in field.split(separator: 0x3A, omittingEmptySubsequences: false) {
                if let bad = digits.first(where: { !(0x30...0x39).contains($0) }) {
                    return .failure(Reason(text: "byte \(bad.hex) inside a numeric parameter"))
                }
                guard digits.count <= ControlSequence.maxDigits else {
                    return .failure(Reason(text: "parameter longer than \(ControlSequence.maxDigits) digits"))
                }
                values.append(digits.isEmpty ? nil : digits.reduce(0) { $0 * 10 + Int($1 - 0x30) })
            }
            parts.parameters.append(values[0])
            parts.subparameters.append(Array(values.dropFirst()))
        }
        return .success(parts)
    }
}
