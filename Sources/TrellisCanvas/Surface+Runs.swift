import TrellisWire

/// Cells of one style side by side on a row: how a screen is read with its attributes
/// (`trellis screen --cells`) without one line per cell.
public struct StyledRun: Codable, Sendable, Equatable {
    /// The column of the first cell.
    public var x: Int
    /// The characters (a wide one covers two columns).
    public var text: String
    /// `default`, a palette index `0`…`255`, or `#rrggbb`.
    public var foreground: String
    public var background: String
    /// `bold`, `dim`, `italic`, `underline`, `blink`, `reverse`, `invisible`, `strikethrough`.
    public var attributes: [String]

    public init(x: Int, text: String, foreground: String, background: String, attributes: [String]) {
        self.x = x
        self.text = text
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }
}

extension Surface {
    /// Each row as runs of equally styled cells, left to right; continuation cells of
    /// wide characters belong to the run of their character.
    public var runs: [[StyledRun]] {
        (0..<size.height).map { y in
            var row: [StyledRun] = []
            var current: (x: Int, style: Style, text: String.UnicodeScalarView)?
            for x in 0..<size.width {
                let cell = self[x, y]
                if cell.scalar == Cell.continuation { continue }
                let style = Style(foreground: cell.foreground, background: cell.background, attributes: cell.attributes)
                if current?.style != style {
                    if let c = current { row.append(StyledRun(c.x, c.style, c.text)) }
                    current = (x, style, String.UnicodeScalarView())
                }
                current!.text.append(Unicode.Scalar(cell.scalar) ?? "\u{FFFD}")
            }
            if let c = current { row.append(StyledRun(c.x, c.style, c.text)) }
            return row
        }
    }
}

extension StyledRun {
    init(_ x: Int, _ style: Style, _ scalars: String.UnicodeScalarView) {
        self.init(
            x: x, text: String(scalars), foreground: Self.name(style.foreground), background: Self.name(style.background),
            attributes: Self.names(style.attributes))
    }

    static func name(_ c: CellColor) -> String {
        switch c {
        case .default: "default"
        case .indexed(let i): "\(i)"
        case .rgb(let r, let g, let b):
            "#" + [r, g, b].map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        }
    }

    static let attributeNames: [(CellAttributes, String)] = [
        (.bold, "bold"), (.dim, "dim"), (.italic, "italic"), (.underline, "underline"), (.blink, "blink"),
        (.reverse, "reverse"), (.invisible, "invisible"), (.strikethrough, "strikethrough"),
    ]

    static func names(_ a: CellAttributes) -> [String] { attributeNames.filter { a.contains($0.0) }.map(\.1) }
}
