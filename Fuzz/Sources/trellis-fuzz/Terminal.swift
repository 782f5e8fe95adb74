import TrellisTerminal

/// The terminal input parser: the bytes a terminal sends, as the compositor reads them.
///
/// The first byte picks a split point; the rest is the input. Contract (the parser's
/// own promise): the events do not depend on how the bytes were split between reads —
/// at once, in two pieces, or byte by byte — with the default paste bound and with
/// a small one; and an invalid event gives its reason and its bytes — but for the
/// report that follows a paste, whose bytes are the paste's.
func fuzzTerminal(_ input: FuzzInput) {
    var input = input
    let split = Int(input.choice())
    let bytes = Array(input.bytes)
    let cut = bytes.isEmpty ? 0 : split % (bytes.count + 1)
    for maxPasteBytes in [1 << 20, 5] {
        let whole = parse([bytes[...]], maxPasteBytes: maxPasteBytes)
        let halves = parse([bytes[..<cut], bytes[cut...]], maxPasteBytes: maxPasteBytes)
        let single = parse(bytes.indices.map { bytes[$0...$0] }, maxPasteBytes: maxPasteBytes)
        contract(halves == whole, "split at \(cut) of \(bytes.count): \(halves) ≠ \(whole)")
        contract(single == whole, "byte by byte: \(single) ≠ \(whole)")
        for (i, event) in whole.enumerated() {
            guard case .invalid(let invalid, let reason) = event else { continue }
            contract(!reason.isEmpty, "an invalid event without a reason: \(invalid)")
            let afterPaste = if i > 0, case .paste = whole[i - 1] { true } else { false }
            contract(!invalid.isEmpty || afterPaste, "an invalid event without its bytes: \(reason)")
        }
    }
}

/// The events of `reads`, all at one instant (no sequence times out between them),
/// then whatever is pending settled as at the end of input.
private func parse(_ reads: [ArraySlice<UInt8>], maxPasteBytes: Int) -> [InputEvent] {
    var parser = TerminalInputParser(maxPasteBytes: maxPasteBytes)
    var events: [InputEvent] = []
    for read in reads { events += parser.feed(read, now: 1_000) }
    return events + parser.flush(now: .max)
}
