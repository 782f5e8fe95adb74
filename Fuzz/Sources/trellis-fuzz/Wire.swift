import TrellisWire

/// The ids a link has read before, kept across inputs as a link keeps them across
/// messages: a stale or wrong entry shows up as a decode that differs from a fresh one.
nonisolated(unsafe) private var linkIDs = ControllerIDCache()

/// The wire codec (docs/PROTOCOL.md): the frames a peer sends, as a link decodes them.
///
/// The input is the protocol frame (4 bytes), the header (96) and the body (the rest);
/// shorter inputs are one frame, which must be refused. Contract: the decoder either
/// refuses with a reason, or gives an envelope that encodes back to exactly the
/// frames it came from; a refusal's error reply encodes and decodes as sent.
func fuzzWire(_ input: FuzzInput) {
    let bytes = Array(input.bytes)
    let frames: [[UInt8]] =
        bytes.count < 100 ? [[], bytes] : [[], Array(bytes[0..<4]), Array(bytes[4..<100]), Array(bytes[100...])]
    checkDecode(frames)
}

/// Decodes `frames` the two ways a peer's message is decoded, and checks the contract.
func checkDecode(_ frames: [[UInt8]]) {
    let fresh = Result { () throws(Rejection) in try WireCodec.decode(frames) }
    // A ROUTER's routing-id frame stays in front; the message starts after it.
    let routed = Result { () throws(Rejection) in try WireCodec.decode([Array("peer".utf8)] + frames, from: 1) }
    contract(sameOutcome(fresh, routed), "decoding after a routing-id frame differs: \(fresh) vs \(routed)")
    if frames.count == WireCodec.frameCount {
        let cached = frames[1].withUnsafeBytes { p in
            frames[2].withUnsafeBytes { h in
                frames[3].withUnsafeBytes { b in
                    Result { () throws(Rejection) in
                        try WireCodec.decode(delimiter: UnsafeRawBufferPointer(start: nil, count: 0), protocolFrame: p, header: h, body: b, ids: &linkIDs)
                    }
                }
            }
        }
        contract(sameOutcome(fresh, cached), "decoding with a link's id cache differs: \(fresh) vs \(cached)")
    }
    switch fresh {
    case .success(let envelope):
        let again = WireCodec.encode(envelope)
        contract(again == frames, "\(envelope) encodes to other frames than it was decoded from")
        contract((try? WireCodec.decode(again)) == envelope, "\(envelope) does not survive encoding and decoding")
    case .failure(let rejection):
        contract(!rejection.error.text.isEmpty, "a rejection without a reason: \(rejection.error.code.name)")
        // What the receiver sends back must itself be a well-formed message.
        let reply = Message.error(rejection.error)
        let decoded = try? Message.decodeBody(kind: .error, reply.encodeBody())
        contract(decoded == reply, "the error reply to \(rejection) does not survive encoding: \(String(describing: decoded))")
    }
}

private func sameOutcome(_ a: Result<Envelope, Rejection>, _ b: Result<Envelope, Rejection>) -> Bool {
    switch (a, b) {
    case (.success(let x), .success(let y)): x == y
    case (.failure(let x), .failure(let y)): x.error == y.error && x.header == y.header
    default: false
    }
}
