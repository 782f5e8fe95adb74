import TrellisTerminal

/// The terminal input parser: the bytes a terminal sends, as the compositor reads them.
///
/// The first byte picks a split point, the second where the reads pause; the rest is
/// the input. Contract (the parser's own promise): the events depend only on the bytes
/// and their times, not on how the bytes were split between reads — at once, in two
/// pieces, or byte by byte — with the default paste bound and with a small one; and
/// an invalid event gives its reason and its bytes — but for the report that follows
/// a paste, whose bytes are the paste's.
func fuzzTerminal(_ input: FuzzInput) {
    var input = input
    let split = Int(input.choice())
    let pauses = input.choice()
    let bytes = Array(input.bytes)
    let cut = bytes.isEmpty ? 0 : split % (bytes.count + 1)
    for maxPasteBytes in [1 << 20, 5] {
        let whole = parse([(bytes[...], 1_000)], maxPasteBytes: maxPasteBytes)
        let halves = parse([(bytes[..<cut], 1_000), (bytes[cut...], 1_000)], maxPasteBytes: maxPasteBytes)
        let single = parse(bytes.indices.map { (bytes[$0...$0], 1_000) }, maxPasteBytes: maxPasteBytes)
        contract(halves == whole, "split at \(cut) of \(bytes.count): \(halves) ≠ \(whole)")
        contract(single == whole, "byte by byte: \(single) ≠ \(whole)")
        for (i, event) in whole.enumerated() {
            guard case .invalid(let invalid, let reason) = event else { continue }
            contract(!reason.isEmpty, "an invalid event without a reason: \(invalid)")
            let afterPaste = if i > 0, case .paste = whole[i - 1] { true } else { false }
            contract(!invalid.isEmpty || afterPaste, "an invalid event without its bytes: \(reason)")
        }
        guard pauses != 0 else { continue }
        // The same bytes with pauses between some of them, long enough to settle a
        // pending escape (or, with the high bit, a paste): each run between pauses read
        // at once must give what reading its bytes one by one at the same times gives.
        let times = readTimes(count: bytes.count, pauses: pauses)
        var runs: [(ArraySlice<UInt8>, UInt64)] = []
        var start = 0
        for i in bytes.indices where i == bytes.count - 1 || times[i + 1] != times[i] {
            runs.append((bytes[start...i], times[i]))
            start = i + 1
        }
        let paused = parse(runs, maxPasteBytes: maxPasteBytes)
        let pausedSingle = parse(bytes.indices.map { (bytes[$0...$0], times[$0]) }, maxPasteBytes: maxPasteBytes)
        contract(pausedSingle == paused, "with pauses \(pauses), byte by byte: \(pausedSingle) ≠ \(paused)")
    }
}

/// When each byte is read: all at one instant but for a pause before the bytes
/// `pauses` picks.
private func readTimes(count: Int, pauses: UInt8) -> [UInt64] {
    let pause: UInt64 = pauses & 0x80 != 0 ? 2_000_000_000 : 60_000_000
    var t: UInt64 = 1_000
    return (0..<count).map { i in
        if (i * 31 + Int(pauses)) % 7 == 0 { t += pause }
        return t
    }
}

/// The events of `reads`, each at its time, then whatever is pending settled as at
/// the end of input.
private func parse(_ reads: [(ArraySlice<UInt8>, UInt64)], maxPasteBytes: Int) -> [InputEvent] {
    var parser = TerminalInputParser(maxPasteBytes: maxPasteBytes)
    var events: [InputEvent] = []
    for (read, now) in reads { events += parser.feed(read, now: now) }
    return events + parser.flush(now: .max)
}
