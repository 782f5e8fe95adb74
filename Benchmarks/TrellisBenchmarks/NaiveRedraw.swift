import TrellisCanvas
import TrellisWire

/// The baseline a damage-tracking terminal writer is measured against: what a program
/// that keeps no copy of what the terminal shows must write every frame — cursor home,
/// then every cell of every row, each row placed by CUP (so no terminal's wrapping rules
/// matter), a full SGR (reset, then colours and attributes) wherever the style differs
/// from the cell before, starting afresh each frame because it does not know the
/// terminal's pen. Colours are written as the cell has them (38;5;n, 38;2;r;g;b): the
/// baseline is meant to be simple, not small.
public enum NaiveRedraw {
    /// Appends the bytes that redraw all of `screen` to `out`.
    public static func frame(_ screen: Surface, into out: inout [UInt8]) {
        let width = screen.size.width
        let cells = screen.rowMajorCells
        out.append(contentsOf: [0x1B, 0x5B, 0x48])  // CSI H
        var pen: Cell?
        for y in 0..<screen.size.height {
            if y > 0 {
                out.append(contentsOf: [0x1B, 0x5B])
                appendDecimal(y + 1, to: &out)
                out.append(contentsOf: [0x3B, 0x31, 0x48])  // ;1H
            }
            for x in 0..<width {
                let cell = cells[y * width + x]
                // The right half of a wide character: its glyph, written with the left
                // half, already took this column.
                if cell.scalar == Cell.continuation { continue }
                if pen.map({ !sameStyle($0, cell) }) ?? true {
                    appendSGR(cell, to: &out)
                    pen = cell
                }
                appendUTF8(cell.scalar, to: &out)
            }
        }
    }

    static func sameStyle(_ a: Cell, _ b: Cell) -> Bool {
        a.foreground == b.foreground && a.background == b.background && a.attributes == b.attributes
    }

    static let attributeCodes: [(CellAttributes, Int)] = [
        (.bold, 1), (.dim, 2), (.italic, 3), (.underline, 4), (.blink, 5), (.reverse, 7), (.invisible, 8),
        (.strikethrough, 9),
    ]

    /// CSI 0 ; attributes ; foreground ; background m
    static func appendSGR(_ cell: Cell, to out: inout [UInt8]) {
        out.append(contentsOf: [0x1B, 0x5B, 0x30])
        for (attribute, code) in attributeCodes where cell.attributes.contains(attribute) {
            out.append(0x3B)
            appendDecimal(code, to: &out)
        }
        appendColor(cell.foreground, base: 38, to: &out)
        appendColor(cell.background, base: 48, to: &out)
        out.append(0x6D)
    }

    static func appendColor(_ color: CellColor, base: Int, to out: inout [UInt8]) {
        switch color {
        case .default:
            break
        case .indexed(let n):
            out.append(0x3B)
            appendDecimal(base, to: &out)
            out.append(contentsOf: [0x3B, 0x35, 0x3B])  // ;5;
            appendDecimal(Int(n), to: &out)
        case .rgb(let r, let g, let b):
            out.append(0x3B)
            appendDecimal(base, to: &out)
            out.append(contentsOf: [0x3B, 0x32])  // ;2
            for c in [r, g, b] {
                out.append(0x3B)
                appendDecimal(Int(c), to: &out)
            }
        }
    }

    static func appendDecimal(_ n: Int, to out: inout [UInt8]) {
        if n >= 10 { appendDecimal(n / 10, to: &out) }
        out.append(UInt8(truncatingIfNeeded: 0x30 + n % 10))
    }

    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        // Surfaces hold only drawable scalars (their writes and frames see to it).
        // Encoded in place: the baseline should be slow for what it writes, not for how.
        UTF8.encode(Unicode.Scalar(scalar) ?? " ") { out.append($0) }
    }
}
