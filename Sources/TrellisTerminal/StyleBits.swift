import TrellisWire

/// A cell's style — its colours and attributes — as two integers, for the redraw's loop
/// over every cell of a screen (`trellis bench compose`): two loads and two compares per
/// cell where comparing the fields compares two enums case by case.
///
/// Equal bits are the same style. Read from memory (`Reader`, where a cell keeps its
/// colours and attributes in ten contiguous bytes, as it does), the bits are the bytes
/// the style is stored in, and a value is its bytes; unequal bits may still be the same
/// style (bytes a colour's case leaves unused), so a caller must treat them only as
/// "perhaps another style". Should the layout ever differ, the bits are worked out from
/// the fields instead, which is slower and equal exactly when the styles are.
struct StyleBits: Equatable {
    var colors: UInt64
    var attributes: UInt16

    /// Reads the style of each cell in a buffer of cells.
    struct Reader {
        let cells: UnsafeBufferPointer<Cell>
        /// Where a cell's foreground starts, when its background follows it and its
        /// attributes follow that; nil when not.
        let offset: Int?

        init(_ cells: UnsafeBufferPointer<Cell>) {
            self.cells = cells
            offset = cells.baseAddress == nil ? nil : StyleBits.offset
        }

        /// The style of `cells[i]`.
        @inline(__always)
        func callAsFunction(_ i: Int) -> StyleBits {
            guard let offset, let base = cells.baseAddress else { return StyleBits(cells[i]) }
            precondition(i >= 0 && i < cells.count)
            // Unchecked arithmetic: `i` indexes a buffer that exists, so this cannot overflow.
            let p = UnsafeRawPointer(base) + (i &* MemoryLayout<Cell>.stride &+ offset)
            return StyleBits(
                colors: p.loadUnaligned(as: UInt64.self), attributes: p.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
        }
    }

    init(colors: UInt64, attributes: UInt16) {
        self.colors = colors
        self.attributes = attributes
    }

    /// The bits of `cell`'s style worked out from its fields: equal exactly when the
    /// styles are. For a style that is not read from a buffer of cells.
    init(_ cell: Cell) {
        colors = Self.code(cell.foreground) | Self.code(cell.background) << 32
        attributes = cell.attributes.rawValue
    }

    private static func code(_ color: CellColor) -> UInt64 {
        switch color {
        case .default: 0
        case .indexed(let n): 1 << 24 | UInt64(n)
        case let .rgb(r, g, b): 2 << 24 | UInt64(r) << 16 | UInt64(g) << 8 | UInt64(b)
        }
    }

    /// Where a cell's foreground starts, when its background follows it and its
    /// attributes follow that, eight bytes of colours and two of attributes; else nil.
    private static let offset: Int? = {
        guard let fg = MemoryLayout<Cell>.offset(of: \.foreground), MemoryLayout<Cell>.offset(of: \.background) == fg + 4,
            MemoryLayout<Cell>.offset(of: \.attributes) == fg + 8, MemoryLayout<CellColor>.size == 4,
            MemoryLayout<CellAttributes>.size == 2
        else { return nil }
        return fg
    }()
}
