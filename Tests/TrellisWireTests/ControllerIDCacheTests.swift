import Testing
import TrellisWire

/// A header's id field: the id's bytes, then zeros up to 32.
private func field(_ bytes: [UInt8]) -> [UInt8] {
    bytes + [UInt8](repeating: 0, count: ControllerID.maxLength - bytes.count)
}

private func id(in cache: inout ControllerIDCache, _ field: [UInt8]) -> ControllerID? {
    field.withUnsafeBytes { cache.id(inField: $0) }
}

@Suite("The id cache a link decodes headers with")
struct ControllerIDCacheTests {
    @Test("a field read again gives the same id, and any field gives what checking it afresh would")
    func sameAsChecking() {
        var cache = ControllerIDCache()
        #expect(id(in: &cache, field(Array("echo".utf8))) == "echo")
        #expect(id(in: &cache, field(Array("echo".utf8))) == "echo")
        // More peers than entries: the ones pushed out are checked again, not lost.
        let names = (0..<10).map { "sink\($0)" } + ["a", String(repeating: "x", count: 32), "echo"]
        for round in 0..<3 {
            for name in names {
                #expect(id(in: &cache, field(Array(name.utf8)))?.rawValue == name, "round \(round), \(name)")
            }
        }
    }

    @Test("a field that is not an id is refused every time, even next to the id it almost is")
    func refusesWhatIsNotAnID() {
        var cache = ControllerIDCache()
        #expect(id(in: &cache, field(Array("echo".utf8))) == "echo")
        var trailing = field(Array("echo".utf8))
        trailing[31] = 1  // a byte after the padding began
        let bad: [[UInt8]] = [
            field([]),  // empty
            trailing,
            field(Array("ec ho".utf8)),  // outside the alphabet
            field([0xE6, 0x97, 0xA5]),  // not ASCII
            [UInt8](repeating: 0xFF, count: 32),
        ]
        for _ in 0..<2 {
            for f in bad { #expect(id(in: &cache, f) == nil, "\(f)") }
        }
        #expect(id(in: &cache, field(Array("echo".utf8))) == "echo")
    }
}
