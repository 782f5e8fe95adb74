import Testing
import TrellisCanvas
import TrellisControllers
import TrellisWire

/// docs/PROTOCOL.md §5.7, `trellis.presentation.present-from-child` (issue 23, "Presented
/// from a child in another process"): what a child's process asks round-trips, and
/// anything else is refused as malformed, never read as some other request.
@Suite struct PresentFromChildRequestTests {
    @Test func whatAChildAsksRoundTrips() {
        let asked = ProcessChildRequest.PresentFromChild(
            style: .formSheet, transition: .crossDissolve, animated: true, preferred: Size(width: 44, height: 9), presented: "ResetAlert")
        #expect(ProcessChildRequest.presentsFromChild(asked.payload) == asked)
        #expect(String(decoding: asked.payload, as: UTF8.self) == "formSheet crossDissolve animated 44x9 ResetAlert")
    }

    @Test(arguments: [
        "", "formSheet", "formSheet coverVertical now 20x6", "none coverVertical now 20x6 M", "sideways coverVertical now 20x6 M",
        "formSheet fade now 20x6 M", "formSheet coverVertical later 20x6 M", "formSheet coverVertical now 20 M",
        "formSheet coverVertical now -1x6 M", "formSheet coverVertical now 70000x6 M", "formSheet coverVertical now 20x6 ",
        "formSheet coverVertical now 20x6 M extra", "formSheet  coverVertical now 20x6 M", "\u{FF}\u{00} garbage",
    ])
    func anythingElseIsMalformed(_ payload: String) {
        #expect(ProcessChildRequest.presentsFromChild(Array(payload.utf8)) == nil, "\(payload)")
    }

    @Test func invalidUTF8IsMalformed() {
        #expect(ProcessChildRequest.presentsFromChild([0xFF, 0xFE, 0x20, 0x00]) == nil)
    }
}
