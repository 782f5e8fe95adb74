/// A symbol of the simplex tableau. External symbols stand for `Variable`s; the
/// others are introduced by constraints: slack (inequalities), error (optional
/// constraints: how far from satisfied), dummy (required equalities, never pivoted).
///
/// One integer: the serial number in the high bits, the kind in the low two, so
/// comparing two symbols compares their serials and nothing needs hashing.
struct Symbol: Hashable, Comparable {
    enum Kind: Int { case external, slack, error, dummy }
    private let raw: Int

    init(serial: Int, kind: Kind) { raw = serial << 2 | kind.rawValue }

    var serial: Int { raw >> 2 }
    var kind: Kind { Kind(rawValue: raw & 3)! }
    var id: Int { serial }
    var isPivotable: Bool { let k = raw & 3; return k == Kind.slack.rawValue || k == Kind.error.rawValue }
    var isExternal: Bool { raw & 3 == Kind.external.rawValue }
    var isDummy: Bool { raw & 3 == Kind.dummy.rawValue }
    static func < (a: Symbol, b: Symbol) -> Bool { a.raw < b.raw }
}

/// One row of the tableau: `basic = constant + Σ coefficient × symbol`.
///
/// The cells are kept sorted by symbol: a lookup is a binary search, adding one row
/// to another is a merge, and "the lowest symbol that …" is the first one found.
/// Rows are short (a handful of cells) except the objective, and a sorted array
/// beats a hash table on both.
///
/// Every pivot asks every row whether it holds the entering symbol, and most do
/// not: `mask`, a 128-bit filter by serial kept beside the row, answers most of
/// those questions without touching the cells. It may have stale bits (a cell
/// removed), never a missing one.
struct Row {
    struct Cell {
        var symbol: Symbol
        var coefficient: Double
    }

    var constant: Double
    private(set) var cells: [Cell] = []
    private var mask: (UInt64, UInt64) = (0, 0)

    init(constant: Double = 0) { self.constant = constant }

    var isEmpty: Bool { cells.isEmpty }

    private static func bit(_ s: Symbol) -> (UInt64, UInt64) {
        let b = s.serial & 127
        return b < 64 ? (1 << UInt64(b), 0) : (0, 1 << UInt64(b - 64))
    }

    private mutating func mark(_ s: Symbol) {
        let b = Self.bit(s)
        mask = (mask.0 | b.0, mask.1 | b.1)
    }

    /// False means `s` is certainly not in the row.
    func mayContain(_ s: Symbol) -> Bool {
        let b = Self.bit(s)
        return mask.0 & b.0 | mask.1 & b.1 != 0
    }

    /// Where `s` is, or where it would go.
    private func position(_ s: Symbol) -> (index: Int, found: Bool) {
        cells.withUnsafeBufferPointer { b in
            var lo = 0, hi = b.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if b[mid].symbol < s { lo = mid + 1 } else { hi = mid }
            }
            return (lo, lo < b.count && b[lo].symbol == s)
        }
    }

    func coefficient(_ s: Symbol) -> Double {
        guard mayContain(s) else { return 0 }
        let (i, found) = position(s)
        return found ? cells[i].coefficient : 0
    }

    /// Adds `coefficient × s`, dropping the cell when it cancels out.
    mutating func add(_ s: Symbol, _ coefficient: Double) {
        let (i, found) = position(s)
        if found {
            let sum = cells[i].coefficient + coefficient
            if nearZero(sum) { cells.remove(at: i) } else { cells[i].coefficient = sum }
        } else if !nearZero(coefficient) {
            cells.insert(Cell(symbol: s, coefficient: coefficient), at: i)
            mark(s)
        }
    }

    /// Adds `factor × other`: one merge of two sorted arrays into a new one.
    mutating func add(_ other: Row, times factor: Double) {
        constant += other.constant * factor
        if other.cells.count == 1 {
            add(other.cells[0].symbol, other.cells[0].coefficient * factor)
            return
        }
        let capacity = cells.count + other.cells.count
        var mask: (UInt64, UInt64) = (0, 0)
        cells = cells.withUnsafeBufferPointer { a in
            other.cells.withUnsafeBufferPointer { b in
                [Cell](unsafeUninitializedCapacity: capacity) { out, count in
                    var i = 0, j = 0, n = 0
                    while i < a.count || j < b.count {
                        let cell: Cell
                        if j == b.count || (i < a.count && a[i].symbol < b[j].symbol) {
                            cell = a[i]
                            i += 1
                        } else if i == a.count || b[j].symbol < a[i].symbol {
                            cell = Cell(symbol: b[j].symbol, coefficient: b[j].coefficient * factor)
                            j += 1
                        } else {
                            cell = Cell(symbol: a[i].symbol, coefficient: a[i].coefficient + b[j].coefficient * factor)
                            i += 1
                            j += 1
                        }
                        if !nearZero(cell.coefficient) {
                            out.initializeElement(at: n, to: cell)
                            n += 1
                            let b = Self.bit(cell.symbol)
                            mask = (mask.0 | b.0, mask.1 | b.1)
                        }
                    }
                    count = n
                }
            }
        }
        self.mask = mask
    }

    mutating func remove(_ s: Symbol) {
        guard mayContain(s) else { return }
        let (i, found) = position(s)
        if found { cells.remove(at: i) }
    }

    mutating func negate() {
        constant = -constant
        for i in cells.indices { cells[i].coefficient = -cells[i].coefficient }
    }

    /// Rewrites `0 = constant + … + c·s + …` as `s = …`, dropping `s`.
    mutating func solve(for s: Symbol) {
        let (i, found) = position(s)
        precondition(found, "Row.solve: \(s) is not in the row")
        let factor = -1 / cells.remove(at: i).coefficient
        constant *= factor
        for i in cells.indices { cells[i].coefficient *= factor }
    }

    /// This row is `lhs = …` with `rhs` among its cells; rewrites it as `rhs = …`.
    mutating func solve(for lhs: Symbol, replacing rhs: Symbol) {
        add(lhs, -1)
        solve(for: rhs)
    }

    /// Replaces `s` by what `row` says it equals. Returns whether `s` was there.
    @discardableResult
    mutating func substitute(_ s: Symbol, _ row: Row) -> Bool {
        guard mayContain(s) else { return false }
        let (i, found) = position(s)
        guard found else { return false }
        let c = cells.remove(at: i).coefficient
        add(row, times: c)
        return true
    }
}
