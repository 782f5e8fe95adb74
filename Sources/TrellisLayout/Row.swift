/// A symbol of the simplex tableau. External symbols stand for `Variable`s; the
/// others are introduced by constraints: slack (inequalities), error (optional
/// constraints: how far from satisfied), dummy (required equalities, never pivoted).
struct Symbol: Hashable, Comparable {
    enum Kind { case external, slack, error, dummy }
    let id: Int
    let kind: Kind

    var isPivotable: Bool { kind == .slack || kind == .error }
    static func < (a: Symbol, b: Symbol) -> Bool { a.id < b.id }
}

/// One row of the tableau: `basic = constant + Σ coefficient × symbol`.
struct Row {
    var constant: Double
    var cells: [Symbol: Double] = [:]

    init(constant: Double = 0) { self.constant = constant }

    func coefficient(_ s: Symbol) -> Double { cells[s] ?? 0 }

    /// Adds `coefficient × s`, dropping the cell when it cancels out.
    mutating func add(_ s: Symbol, _ coefficient: Double) {
        let sum = (cells[s] ?? 0) + coefficient
        if nearZero(sum) { cells.removeValue(forKey: s) } else { cells[s] = sum }
    }

    /// Adds `factor × other`.
    mutating func add(_ other: Row, times factor: Double) {
        constant += other.constant * factor
        for (s, c) in other.cells { add(s, c * factor) }
    }

    mutating func remove(_ s: Symbol) { cells.removeValue(forKey: s) }

    mutating func negate() {
        constant = -constant
        for key in Array(cells.keys) { cells[key] = -cells[key]! }
    }

    /// Rewrites `0 = constant + … + c·s + …` as `s = …`, dropping `s`.
    mutating func solve(for s: Symbol) {
        let c = cells.removeValue(forKey: s)!
        let factor = -1 / c
        constant *= factor
        for key in Array(cells.keys) { cells[key]! *= factor }
    }

    /// This row is `lhs = …` with `rhs` among its cells; rewrites it as `rhs = …`.
    mutating func solve(for lhs: Symbol, replacing rhs: Symbol) {
        add(lhs, -1)
        solve(for: rhs)
    }

    /// Replaces `s` by what `row` says it equals.
    mutating func substitute(_ s: Symbol, _ row: Row) {
        guard let c = cells.removeValue(forKey: s) else { return }
        add(row, times: c)
    }
}
