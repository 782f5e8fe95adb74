import Testing
import TrellisTerminal
import TrellisWire

let mouseCases: [InputCase] = [
    InputCase("left press, top-left cell", "\(esc)[<0;1;1M", [touch(.began, pointer: 0, x: 0, y: 0)]),
    InputCase("right press", "\(esc)[<2;10;5M", [touch(.began, pointer: 2, x: 9, y: 4)]),
    InputCase("left drag", "\(esc)[<32;3;4M", [touch(.moved, pointer: 0, x: 2, y: 3)]),
    InputCase("middle drag", "\(esc)[<33;3;4M", [touch(.moved, pointer: 1, x: 2, y: 3)]),
    InputCase("left release", "\(esc)[<0;3;4m", [touch(.ended, pointer: 0, x: 2, y: 3)]),
    InputCase("middle release", "\(esc)[<1;5;6m", [touch(.ended, pointer: 1, x: 4, y: 5)]),
    InputCase("shift click", "\(esc)[<4;1;1M", [touch(.began, pointer: 0, x: 0, y: 0, .shift)]),
    InputCase("alt click", "\(esc)[<8;1;1M", [touch(.began, pointer: 0, x: 0, y: 0, .alt)]),
    InputCase("ctrl click", "\(esc)[<16;1;1M", [touch(.began, pointer: 0, x: 0, y: 0, .control)]),
    InputCase("extra button 8", "\(esc)[<128;2;2M", [touch(.began, pointer: 7, x: 1, y: 1)]),
    InputCase("large coordinates", "\(esc)[<0;300;200M", [touch(.began, pointer: 0, x: 299, y: 199)]),
    InputCase("wheel up", "\(esc)[<64;7;8M", [scroll(dy: -1, x: 6, y: 7)]),
    InputCase("wheel down", "\(esc)[<65;7;8M", [scroll(dy: 1, x: 6, y: 7)]),
    InputCase("wheel left", "\(esc)[<66;7;8M", [scroll(dx: -1, x: 6, y: 7)]),
    InputCase("wheel right", "\(esc)[<67;7;8M", [scroll(dx: 1, x: 6, y: 7)]),
    InputCase("ctrl wheel", "\(esc)[<80;1;1M", [scroll(dy: -1, x: 0, y: 0, .control)]),
    InputCase("hover without a button is dropped", "\(esc)[<35;4;4Mx", [text("x")]),
    InputCase(
        "click, drag, release",
        "\(esc)[<0;1;1M\(esc)[<32;2;1M\(esc)[<32;3;2M\(esc)[<0;3;2m",
        [touch(.began, pointer: 0, x: 0, y: 0), touch(.moved, pointer: 0, x: 1, y: 0),
         touch(.moved, pointer: 0, x: 2, y: 1), touch(.ended, pointer: 0, x: 2, y: 1)]
    ),
]

let badMouseCases: [InputCase] = [
    InputCase("missing field", "\(esc)[<0;1Mz", []),
    InputCase("empty field", "\(esc)[<0;;1Mz", []),
    InputCase("four fields", "\(esc)[<0;1;1;1Mz", []),
    InputCase("zero coordinate", "\(esc)[<0;0;1Mz", []),
    InputCase("button 3 press", "\(esc)[<3;1;1Mz", []),
    InputCase("button code above 255", "\(esc)[<999;1;1Mz", []),
    InputCase("wheel and extra bits", "\(esc)[<192;1;1Mz", []),
    InputCase("X10 encoding", "\(esc)[Mz", []),
]

@Suite("Terminal input: SGR mouse")
struct MouseInputTests {
    @Test(arguments: mouseCases)
    func reports(_ row: InputCase) { #expect(decode(row.bytes) == row.events) }

    /// Each malformed report is one `.invalid` carrying its bytes, and the `z` after it survives.
    @Test(arguments: badMouseCases)
    func malformed(_ row: InputCase) {
        let events = decode(row.bytes)
        #expect(events.count == 2)
        guard case .invalid(let bytes, let reason)? = events.first else {
            Issue.record("expected .invalid first, got \(events)")
            return
        }
        #expect(bytes == Array(row.bytes.dropLast()))
        #expect(!reason.isEmpty)
        #expect(events.last == text("z"))
    }
}
