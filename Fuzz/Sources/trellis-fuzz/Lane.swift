import TrellisWire

/// A lane's stream (docs/TRANSPORT.md, "Lanes"): length-prefixed messages back to back,
/// as a link's `LaneReader` takes them from its socket.
///
/// The input is the stream. Contract: read at once, in pieces of 13 bytes or a byte at a
/// time (997 bytes for a stream over 2 KB), it gives the same messages and refusals in the same order; each message taken
/// encodes back to exactly the bytes it took; a refusal has a reason; after a length over
/// the limit the reader is broken and gives nothing more.
func fuzzLane(_ input: FuzzInput) {
    let stream = Array(input.bytes)
    let whole = readLane(stream, inPiecesOf: max(stream.count, 1))
    // A byte at a time only for short streams: it is the slowest reading by far.
    for piece in stream.count <= 2048 ? [13, 1] : [13, 997] {
        let pieces = readLane(stream, inPiecesOf: piece)
        contract(pieces == whole, "read in pieces of \(piece), the stream gives \(pieces), at once \(whole)")
    }
    for outcome in whole {
        switch outcome {
        case .message(let envelope, let at, let bytes):
            let again = LaneFraming.encode(envelope)
            contract(again.count == bytes, "\(envelope) took \(bytes) bytes and encodes to \(again.count)")
            contract(again[...] == stream[at..<at + bytes], "\(envelope) encodes to other bytes than it took")
        case .refused(let text):
            contract(!text.isEmpty, "a refusal without a reason")
        }
    }
}

private enum Outcome: Equatable {
    /// Where in the stream it began, and its bytes.
    case message(Envelope, at: Int, bytes: Int)
    case refused(String)
}

private func readLane(_ stream: [UInt8], inPiecesOf piece: Int) -> [Outcome] {
    var reader = LaneReader(capacity: 64)
    var ids = ControllerIDCache()
    var outcomes: [Outcome] = []
    var at = 0
    while at < stream.count && !reader.broken {
        reader.append(stream[at..<min(at + piece, stream.count)])
        at += piece
        while !reader.broken {
            let before = reader.taken
            do throws(Rejection) {
                guard let (envelope, bytes) = try reader.next(ids: &ids) else { break }
                contract(reader.taken == before + bytes, "a message took \(bytes) bytes, the reader counts \(reader.taken - before)")
                outcomes.append(.message(envelope, at: before, bytes: bytes))
            } catch {
                outcomes.append(.refused(error.error.text))
            }
        }
    }
    return outcomes
}
