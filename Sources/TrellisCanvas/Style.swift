import TrellisWire

/// How cells look apart from their character: colours and attributes, the part of a
/// `Cell` that drawing calls take once and apply to every cell they write.
public struct Style: Hashable, Sendable {
    public var foreground: CellColor
    public var background: CellColor
    public var attributes: CellAttributes

    public init(foreground: CellColor = .default, background: CellColor = .default, attributes: CellAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's default colours, no attributes: what a blank `Cell()` has.
    public static let plain = Style()

    /// A cell holding `scalar` in this style.
    public func cell(_ scalar: UInt32) -> Cell {
        Cell(scalar: scalar, foreground: foreground, background: background, attributes: attributes)
    }
}

extension Style {
    /// The style of an existing cell, so blanking half of a wide character keeps its colours.
    init(of cell: Cell) {
        self.init(foreground: cell.foreground, background: cell.background, attributes: cell.attributes)
    }
}
