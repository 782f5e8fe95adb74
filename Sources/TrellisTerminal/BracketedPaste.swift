/// The body of one bracketed paste (`CSI 200~` … `CSI 201~`) as it streams in.
///
/// Nothing inside is interpreted: escape sequences in pasted text stay text, so a paste
/// cannot inject keys. Only the end marker is looked for; bytes beyond `limit` are
/// counted and dropped so that a huge paste cannot grow memory without bound.
struct BracketedPaste {
    static let endMarker: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

    let limit: Int
    private var bytes: [UInt8] = []
    private var dropped = 0
    /// How many bytes of `endMarker` the latest input has matched.
    private var matched = 0

    init(limit: Int) { self.limit = limit }

    /// Takes one byte; `true` when it completes the end marker.
    mutating func take(_ byte: UInt8) -> Bool {
        if byte == Self.endMarker[matched] {
            matched += 1
            return matched == Self.endMarker.count
        }
        // The marker's only ESC is its first byte, so a failed partial match is plain text
        // and matching restarts only at this byte.
        releaseMatched()
        if byte == Self.endMarker[0] {
            matched = 1
        } else {
            append(byte)
        }
        return false
    }

    /// The paste, and an `.invalid` event when some of it was dropped or repaired.
    /// `closed` is false when the end marker never came; a partial marker is then text.
    mutating func finish(closed: Bool) -> [InputEvent] {
        if !closed { releaseMatched() }
        var kept = bytes[...]
        if dropped > 0 { kept = kept.dropLast(Self.incompleteTail(of: kept)) }
        let normalised = Self.normaliseNewlines(kept)
        var events: [InputEvent] = []
        var problems: [String] = []
        if let text = String(validating: normalised, as: UTF8.self) {
            events.append(.paste(text))
        } else {
            events.append(.paste(String(decoding: normalised, as: UTF8.self)))
            problems.append("invalid UTF-8 replaced with U+FFFD")
        }
        if dropped > 0 {
            problems.append("\(bytes.count + dropped) bytes truncated to \(kept.count) (limit \(limit))")
        }
        if !closed { problems.append("no end marker (CSI 201~) before the paste timed out") }
        if !problems.isEmpty {
            events.append(.invalid(bytes: [], reason: "bracketed paste: " + problems.joined(separator: "; ")))
        }
        return events
    }

    private mutating func releaseMatched() {
        for byte in Self.endMarker[..<matched] { append(byte) }
        matched = 0
    }

    private mutating func append(_ byte: UInt8) {
        if bytes.count < limit { bytes.append(byte) } else { dropped += 1 }
    }

    /// Terminals send a pasted newline as CR (the Enter key); views expect "\n".
    private static func normaliseNewlines(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == 0x0D {
                out.append(0x0A)
            } else if !(byte == 0x0A && previous == 0x0D) {
                out.append(byte)
            }
            previous = byte
        }
        return out
    }

    /// How many trailing bytes form a UTF-8 sequence that truncation cut short, so a
    /// cut at the limit does not leave half a character.
    private static func incompleteTail(of bytes: ArraySlice<UInt8>) -> Int {
        var back = 0
        while back < min(4, bytes.count) {
            back += 1
            let byte = bytes[bytes.endIndex - back]
            if byte & 0xC0 == 0x80 { continue }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return length > back ? back : 0
        }
        return 0
    }
}
