import ArgumentParser
import SeededRandom
import TrellisBenchmarks
import TrellisCanvas
import TrellisTerminal
import TrellisWire

/// `trellis terminal-check --seed N` (hidden): random screens through a `ScreenWriter`,
/// for Tests/interop/test_screen_writer.py to feed into a terminal emulator (pyte) and
/// compare with what the writer was asked to show.
///
/// Output, one record a line: `size W H DEPTH` first, then per frame `R W H` when the
/// screen was resized, `F <hex bytes>` (what the writer wrote), `S <hex UTF-8>` (the
/// screen's text, rows joined by newlines), `C X Y` or `C -` (cursor shown there, or
/// hidden), and `A <hex UTF-8>` (per row, per glyph: foreground, background and
/// attribute bits, for comparing styles; only in true colour, where nothing is reduced).
struct TerminalCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terminal-check",
        abstract: "Print random frames written by ScreenWriter (for the interop tests).",
        shouldDisplay: false
    )

    @Option(help: "Seed of the random screens; its remainder by 4 picks the colour depth.") var seed: UInt64 = 1
    @Option(help: "Frames to write.") var frames = 80
    @Option(help: "Screen width.") var width = 24
    @Option(help: "Screen height.") var height = 8

    func run() throws {
        var random = SplitMix64(seed: seed)
        let depth = ColorDepth.allCases[Int(seed % 4)]
        var screen = Surface(size: Size(width: width, height: height))
        var writer = ScreenWriter(size: screen.size, depth: depth)
        print("size \(width) \(height) \(depth)")
        for _ in 0..<frames {
            if random.below(100) < 4 {
                let size = Size(width: 4 + random.below(30), height: 1 + random.below(10))
                screen.resize(to: size)
                writer.resize(to: size)
                print("R \(size.width) \(size.height)")
            }
            for _ in 0..<random.below(6) {
                scribble(on: &screen, depth: depth, random: &random)
            }
            let cursor: Point? = random.below(5) == 0
                ? Point(x: random.below(screen.size.width), y: random.below(screen.size.height)) : nil
            print("F " + hex(writer.frame(screen, damage: screen.takeDamage(), cursor: cursor)))
            print("S " + hex(Array(screen.text.utf8)))
            print(cursor.map { "C \($0.x) \($0.y)" } ?? "C -")
            if depth == .trueColor { print("A " + hex(Array(styles(of: screen).utf8))) }
        }
    }

    /// One random drawing: text (often Japanese, at any column, so wide characters land
    /// on and across each other's halves) or a filled rectangle.
    private func scribble(on screen: inout Surface, depth: ColorDepth, random: inout SplitMix64) {
        let texts = ["日本語", "かなカナ", "漢字とabc", "x", "Hello", "é─│┼", "ｗｉｄｅ", "表示テスト", " ", "世界!"]
        let style = randomStyle(depth: depth, random: &random)
        let x = random.below(screen.size.width + 4) - 2
        let y = random.below(screen.size.height)
        switch random.below(12) {
        case 0..<6:
            screen.put(texts[random.below(texts.count)], at: Point(x: x, y: y), style: style)
        case 6..<9:
            let rect = Rect(x: x, y: y, width: random.below(8), height: 1 + random.below(3))
            let fill: [Character] = [" ", ".", "漢", "#"]
            screen.fill(rect, with: style, character: fill[random.below(fill.count)])
        case 9:
            screen.fill(screen.bounds, with: style)
        default:
            // Plain blanks, as a view clears what it drew: the writer erases runs of them
            // (EL, ECH) rather than writing them.
            let rect = Rect(x: x, y: y, width: random.below(screen.size.width + 2), height: 1 + random.below(3))
            screen.fill(rect, with: .plain)
        }
    }

    private func randomStyle(depth: ColorDepth, random: inout SplitMix64) -> Style {
        func color(_ random: inout SplitMix64) -> CellColor {
            switch random.below(depth == .trueColor ? 2 : 3) {
            case 0: .default
            case 1: .rgb(UInt8(random.below(256)), UInt8(random.below(256)), UInt8(random.below(256)))
            default: .indexed(UInt8(random.below(256)))
            }
        }
        let fg = color(&random)
        let bg = color(&random)
        return Style(foreground: fg, background: bg, attributes: CellAttributes(rawValue: UInt16(random.below(256))))
    }

    /// Per row, per glyph (continuation cells skipped): "fg/bg/bits" joined by spaces,
    /// colours as rrggbb or "default", bits of bold, italic, underline, blink, reverse,
    /// strikethrough (what pyte keeps).
    private func styles(of screen: Surface) -> String {
        func name(_ c: CellColor) -> String {
            guard case let .rgb(r, g, b) = c else { return "default" }
            return [r, g, b].map { hex([$0]) }.joined()
        }
        let kept = CellAttributes([.bold, .italic, .underline, .blink, .reverse, .strikethrough])
        var rows: [String] = []
        for y in 0..<screen.size.height {
            var glyphs: [String] = []
            for x in 0..<screen.size.width where screen[x, y].scalar != Cell.continuation {
                let c = screen[x, y]
                glyphs.append("\(name(c.foreground))/\(name(c.background))/\(c.attributes.intersection(kept).rawValue)")
            }
            rows.append(glyphs.joined(separator: " "))
        }
        return rows.joined(separator: "\n")
    }

    private func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
