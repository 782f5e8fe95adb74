import Testing
import TrellisBenchmarks
import TrellisCanvas
import TrellisWire

/// The compose benchmark's baseline must really redraw the whole screen: replayed on a
/// terminal that shows garbage, its bytes alone must leave every cell as the surface has it.
struct NaiveRedrawTests {
    @Test func aFrameRedrawsEveryCellOverGarbage() {
        var s = Surface(size: Size(width: 12, height: 4))
        s.put("plain", at: Point(x: 0, y: 0), style: .plain)
        s.put("bold red", at: Point(x: 2, y: 1), style: Style(foreground: .indexed(1), attributes: .bold))
        s.put("日本", at: Point(x: 7, y: 2), style: Style(foreground: .rgb(1, 2, 3), background: .indexed(200)))
        s.fill(Rect(x: 0, y: 3, width: 12, height: 1), with: Style(background: .indexed(4)))
        var bytes: [UInt8] = []
        NaiveRedraw.frame(s, into: &bytes)

        var terminal = MiniTerminal(size: s.size, fill: Cell(scalar: 0x23, foreground: .indexed(9), attributes: .reverse))
        terminal.feed(bytes)
        for y in 0..<s.size.height {
            for x in 0..<s.size.width {
                #expect(terminal.cells[y * s.size.width + x] == s[x, y], "cell (\(x), \(y))")
            }
        }
    }

    @Test func theSameScreenCostsTheSameEveryFrame() {
        var s = Surface(size: Size(width: 20, height: 3))
        s.put("abc", at: .zero, style: .plain)
        var first: [UInt8] = [], second: [UInt8] = []
        NaiveRedraw.frame(s, into: &first)
        NaiveRedraw.frame(s, into: &second)
        #expect(first == second)
        #expect(first.count >= 20 * 3)
    }
}

/// Just enough of a terminal to replay NaiveRedraw: CUP, SGR and printable UTF-8.
struct MiniTerminal {
    let size: Size
    var cells: [Cell]
    var x = 0, y = 0
    var pen = Cell()

    init(size: Size, fill: Cell) {
        self.size = size
        cells = Array(repeating: fill, count: size.width * size.height)
    }

    mutating func feed(_ bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x1B {
                precondition(bytes[i + 1] == 0x5B, "only CSI sequences expected")
                var j = i + 2
                while !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                let params = String(decoding: bytes[(i + 2)..<j], as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false)
                    .map { Int($0) ?? 0 }
                csi(params, final: bytes[j])
                i = j + 1
                continue
            }
            // One scalar of UTF-8.
            let length = bytes[i] < 0x80 ? 1 : bytes[i] < 0xE0 ? 2 : bytes[i] < 0xF0 ? 3 : 4
            let scalar = String(decoding: bytes[i..<(i + length)], as: UTF8.self).unicodeScalars.first!
            put(scalar)
            i += length
        }
    }

    mutating func put(_ scalar: Unicode.Scalar) {
        var cell = pen
        cell.scalar = scalar.value
        cells[y * size.width + x] = cell
        if CharacterWidth.columns(of: scalar) == 2 {
            cell.scalar = Cell.continuation
            cells[y * size.width + x + 1] = cell
            x += 1
        }
        x = min(x + 1, size.width - 1)
    }

    mutating func csi(_ p: [Int], final: UInt8) {
        switch final {
        case UInt8(ascii: "H"):
            y = max(1, p.first ?? 1) - 1
            x = max(1, p.count > 1 ? p[1] : 1) - 1
        case UInt8(ascii: "m"):
            var k = 0
            while k < p.count {
                switch p[k] {
                case 0: pen = Cell()
                case 1: pen.attributes.insert(.bold)
                case 38, 48:
                    let foreground = p[k] == 38
                    let colour: CellColor
                    if p[k + 1] == 5 {
                        colour = .indexed(UInt8(p[k + 2]))
                        k += 2
                    } else {
                        colour = .rgb(UInt8(p[k + 2]), UInt8(p[k + 3]), UInt8(p[k + 4]))
                        k += 4
                    }
                    if foreground { pen.foreground = colour } else { pen.background = colour }
                default: break
                }
                k += 1
            }
        default:
            Issue.record("unexpected CSI \(Character(Unicode.Scalar(final)))")
        }
    }
}
