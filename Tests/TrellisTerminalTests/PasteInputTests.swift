import Testing
import TrellisTerminal
import TrellisWire

let pasteStart = "\(esc)[200~"
let pasteEnd = "\(esc)[201~"

@Suite("Terminal input: bracketed paste")
struct PasteInputTests {
    @Test func pasteIsOneEvent() {
        #expect(decode(Array("\(pasteStart)hello, 世界\(pasteEnd)x".utf8)) == [.paste("hello, 世界"), text("x")])
    }

    @Test func emptyPaste() {
        #expect(decode(Array("\(pasteStart)\(pasteEnd)".utf8)) == [.paste("")])
    }

    @Test func escapeSequencesAndControlsInsidePasteStayText() {
        let body = "a\(esc)[Ab\(esc)[<0;1;1M\u{03}\(esc)[200~\(esc)[20x\(esc)"
        #expect(decode(Array("\(pasteStart)\(body)\(pasteEnd)".utf8)) == [.paste(body)])
    }

    @Test func carriageReturnsBecomeNewlines() {
        #expect(decode(Array("\(pasteStart)one\rtwo\r\nthree\nfour\(pasteEnd)".utf8)) == [.paste("one\ntwo\nthree\nfour")])
    }

    @Test func invalidUTF8InPasteIsReplacedAndReported() {
        let events = decode(Array(pasteStart.utf8) + [0x61, 0xFF, 0x62] + Array(pasteEnd.utf8))
        #expect(events.first == .paste("a\u{FFFD}b"))
        #expect(events.count == 2 && events[1].invalidReason?.contains("invalid UTF-8") == true)
    }

    @Test func oversizedPasteIsTruncatedAndReportedAndNothingElseIsLost() {
        var parser = TerminalInputParser()
        let limit = 1 << 20
        var events = parser.feed(Array(pasteStart.utf8), now: 0)
        events += parser.feed([UInt8](repeating: 0x61, count: limit + 100), now: 0)
        events += parser.feed(Array("\(pasteEnd)\(esc)[Aq".utf8), now: 0)
        #expect(events.count == 4)
        #expect(events[0] == .paste(String(repeating: "a", count: limit)))
        #expect(events[1].invalidReason?.contains("\(limit + 100) bytes truncated to \(limit)") == true)
        #expect(Array(events.dropFirst(2)) == [key(.up), text("q")])
    }

    @Test func truncationDoesNotSplitACharacter() {
        var parser = TerminalInputParser(maxPasteBytes: 4)
        let events = parser.feed(Array("\(pasteStart)ab日本\(pasteEnd)".utf8), now: 0)
        #expect(events.first == .paste("ab"))
        #expect(events.count == 2)
    }

    @Test func unterminatedPasteIsDeliveredAfterItsTimeout() {
        var parser = TerminalInputParser()
        #expect(parser.feed(Array("\(pasteStart)abc\(esc)[20".utf8), now: 0).isEmpty)
        #expect(parser.deadline == 1_000_000_000)
        #expect(parser.flush(now: 500_000_000).isEmpty)
        let events = parser.flush(now: 1_000_000_000)
        #expect(events.first == .paste("abc\(esc)[20"))
        #expect(events.last?.invalidReason?.contains("no end marker") == true)
        #expect(parser.deadline == nil)
    }

    @Test func strayEndMarkerIsInvalid() {
        let events = decode(Array("\(pasteEnd)a".utf8))
        #expect(events.first?.invalidReason == "paste end marker without a paste start")
        #expect(events.last == text("a"))
    }
}
