// Cells are compared once per cell per frame: a terminal writer diffs a 200×60 screen,
// 12,000 comparisons, and composition compares every cell it stores. The derived `==`
// is an out-of-line call per cell from other modules; these are the same comparisons,
// inlinable, so a diff loop compiles to a few compares per cell.

extension CellColor {
    @inlinable
    public static func == (a: CellColor, b: CellColor) -> Bool {
        switch (a, b) {
        case (.default, .default): true
        case (.indexed(let x), .indexed(let y)): x == y
        case (.rgb(let r1, let g1, let b1), .rgb(let r2, let g2, let b2)): r1 == r2 && g1 == g2 && b1 == b2
        default: false
        }
    }
}

extension Cell {
    @inlinable
    public static func == (a: Cell, b: Cell) -> Bool {
        a.scalar == b.scalar && a.attributes.rawValue == b.attributes.rawValue && a.foreground == b.foreground
            && a.background == b.background
    }
}
