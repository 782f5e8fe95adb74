import Testing
import TrellisCanvas
import TrellisWire

/// `trellis screen --cells` reads the composed screen as styled runs.
@Suite struct SurfaceRunsTests {
    @Test func aRowIsRunsOfEquallyStyledCellsWithWideCharactersWhole() {
        var s = Surface(size: Size(width: 8, height: 1))
        _ = s.put("ab", at: Point(x: 0, y: 0), style: Style(foreground: .indexed(1), attributes: [.bold]))
        _ = s.put("漢c", at: Point(x: 2, y: 0), style: Style(background: .rgb(0, 0x80, 0xff)))
        let row = s.runs[0]
        #expect(row == [
            StyledRun(x: 0, text: "ab", foreground: "1", background: "default", attributes: ["bold"]),
            StyledRun(x: 2, text: "漢c", foreground: "default", background: "#0080ff", attributes: []),
            StyledRun(x: 5, text: "   ", foreground: "default", background: "default", attributes: []),
        ])
    }
}
