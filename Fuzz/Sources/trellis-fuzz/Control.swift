import TrellisWire

/// The kinds a test client sends the compositor's control endpoint, with a value of
/// each to take the header from (docs/PROCESSES.md, "The control endpoint").
let controlKinds: [Message] = [
    .touch(TouchInput(phase: .began, x: 0, y: 0, timestamp: 0)),
    .key(KeyPress(text: "q")),
    .sizeTransition(SizeTransition(width: 80, height: 24)),
    .request(Request(name: "screen")),
    .scroll(ScrollInput(deltaY: 1, x: 0, y: 0, timestamp: 0)),
]

/// A control request's frames: a client's header for `kind`, and `body`.
func controlFrames(_ kind: Message, body: [UInt8]) -> [[UInt8]] {
    let header = WireCodec.encodeHeader(
        Envelope(sequence: 1, trace: 7, source: "client", target: "compositor", flags: [.ackRequested], message: kind))
    return [[], WireCodec.protocolFrame, header, body]
}

/// Control requests: the bodies of touch, key, size and request messages from a test
/// client, under a well-formed header so that every mutation lands in a body. The
/// first byte picks the kind. Contract: as for `wire`, and a request that decodes has
/// a name the compositor can quote in its answer (1…64 bytes of UTF-8).
func fuzzControl(_ input: FuzzInput) {
    var input = input
    let kind = controlKinds[Int(input.choice()) % controlKinds.count]
    let frames = controlFrames(kind, body: Array(input.bytes))
    checkDecode(frames)
    if case .request(let r)? = (try? WireCodec.decode(frames))?.message {
        contract((1...WireLimits.maxRequestName).contains(r.name.utf8.count), "request name of \(r.name.utf8.count) bytes")
        contract(r.payload.count <= WireLimits.maxPayload, "request payload of \(r.payload.count) bytes")
    }
}
