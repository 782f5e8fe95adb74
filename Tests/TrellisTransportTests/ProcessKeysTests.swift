import Testing
import TrellisTransport
import TrellisWire

/// What the supervisor writes on a process's standard input (issue 19 finding 8) reads
/// back as written, and anything else is refused rather than half-read.
@Suite struct ProcessKeysTests {
    @Test func keysReadBackAsWritten() throws {
        let keys = ProcessKeys(
            own: try CurveKeyPair.generate(), parent: try CurveKeyPair.generate().publicKey,
            compositor: try CurveKeyPair.generate().publicKey,
            children: [try CurveKeyPair.generate().publicKey: "Seed001", try CurveKeyPair.generate().publicKey: "Seed002"],
            // Issue 20: the pairs of the actor-placed controllers the process hosts.
            actors: ["Detail": try CurveKeyPair.generate(), "List": try CurveKeyPair.generate()])
        #expect(try ProcessKeys.decode(keys.encoded) == keys)
        let compositor = ProcessKeys(own: try CurveKeyPair.generate(), parent: nil, compositor: nil, children: [:])
        #expect(try ProcessKeys.decode(compositor.encoded) == compositor)
    }

    @Test(arguments: [
        "",  // the supervisor died before writing
        "public abc\nsecret def\n",
        "secret \(String(repeating: "0", count: 40))\n",
        "public \(String(repeating: "0", count: 40))\nsecret \(String(repeating: "0", count: 40))\nchild bad/id \(String(repeating: "0", count: 40))\n",
        "public \(String(repeating: "0", count: 40))\nsecret \(String(repeating: "0", count: 40))\nfriend x\n",
        "public \(String(repeating: "0", count: 40))\nsecret \(String(repeating: "0", count: 40))\nactor A \(String(repeating: "0", count: 40))\n",
        "public \(String(repeating: "0", count: 40))\nsecret \(String(repeating: "0", count: 40))\nactor bad/id \(String(repeating: "0", count: 40)) \(String(repeating: "0", count: 40))\n",
    ])
    func anythingElseIsRefused(_ text: String) {
        #expect(throws: ProcessKeys.Failure.self) { try ProcessKeys.decode(text) }
    }
}
