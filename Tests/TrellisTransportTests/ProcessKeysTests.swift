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
            actors: ["Detail": try CurveKeyPair.generate(), "List": try CurveKeyPair.generate()],
            // Issue 20: the processes that connect to an actor's own parent end.
            actorChildren: ["Detail": [try CurveKeyPair.generate().publicKey: "Leaf", try CurveKeyPair.generate().publicKey: "Pane"]])
        #expect(try ProcessKeys.decode(keys.encoded) == keys)
        #expect(keys.encoded.contains("actor-child Detail Leaf "))
        guard case .server(let pair, let children)? = keys.server(ofActor: "Detail") else {
            Issue.record("no parent end for the actor Detail")
            return
        }
        #expect(pair == keys.actors["Detail"] && children == keys.actorChildren["Detail"])
        let noEnd = keys.server(ofActor: "Nobody") == nil
        #expect(noEnd, "an actor with no pair has no parent end")
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
        // Issue 20: an actor's child with a bad id, a bad key, too few fields, or for an
        // actor that has no pair here.
        "public \(String(repeating: "0", count: 40))\nsecret \(String(repeating: "0", count: 40))\nactor A \(String(repeating: "0", count: 40)) \(String(repeating: "0", count: 40))\nactor-child A bad/id \(String(repeating: "0", count: 40))\n",
        "public \(String(repeating: "0", count: 40))\nsecret \(String(repeating: "0", count: 40))\nactor A \(String(repeating: "0", count: 40)) \(String(repeating: "0", count: 40))\nactor-child A Leaf short\n",
        "public \(String(repeating: "0", count: 40))\nsecret \(String(repeating: "0", count: 40))\nactor A \(String(repeating: "0", count: 40)) \(String(repeating: "0", count: 40))\nactor-child A \(String(repeating: "0", count: 40))\n",
        "public \(String(repeating: "0", count: 40))\nsecret \(String(repeating: "0", count: 40))\nactor-child Nobody Leaf \(String(repeating: "0", count: 40))\n",
    ])
    func anythingElseIsRefused(_ text: String) {
        #expect(throws: ProcessKeys.Failure.self) { try ProcessKeys.decode(text) }
    }
}
