/// An incremental Cassowary solver: the algorithm behind Auto Layout
/// (Badros, Borning & Stuckey, "The Cassowary linear arithmetic constraint solving
/// algorithm", 2001; kiwi is the reference implementation).
///
/// Required constraints hold exactly or are refused; optional ones are satisfied as
/// well as their priorities allow. Adding or removing a constraint, or suggesting a
/// new value for an edit variable, re-optimizes from the previous solution instead
/// of solving from scratch.
///
/// Entering and leaving symbols are chosen by lowest id among equals (Bland's rule),
/// so the same constraints always give the same layout, whatever hashing does.
public final class Solver {
    /// Why the solver refused; constraints are named by their description, since a
    /// `Constraint` belongs to its layout and an error may travel further.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case duplicate(String)
        case unknown(String)
        /// A required constraint contradicts the required ones already added.
        case unsatisfiable(String)
        case duplicateEditVariable(String)
        case unknownEditVariable(String)
        case requiredEditVariable(String)

        public var description: String {
            switch self {
            case .duplicate(let c): "constraint already added: \(c)"
            case .unknown(let c): "constraint was never added: \(c)"
            case .unsatisfiable(let c): "unable to satisfy \(c) together with the required constraints already in place"
            case .duplicateEditVariable(let v): "\(v) is already an edit variable"
            case .unknownEditVariable(let v): "\(v) is not an edit variable"
            case .requiredEditVariable(let v): "an edit variable cannot be required (\(v))"
            }
        }
    }

    private struct Tag {
        var marker: Symbol
        var other: Symbol?
    }

    private struct Edit {
        var tag: Tag
        var constraint: Constraint
        var constant: Double
    }

    /// The tableau, basic symbol → row, as two parallel arrays (rows leave by
    /// swapping with the last) and an index from symbol serial to position: walking
    /// every row, which each pivot does, is walking an array, in an order that
    /// depends on nothing but the calls made.
    private var basics: [Symbol] = []
    private var rowData: [Row] = []
    private var slot: [Int32] = [-1]  // by serial; -1: not basic
    private var symbols: [Variable: Symbol] = [:]
    private var constraints: [Constraint: Tag] = [:]
    private var edits: [Variable: Edit] = [:]
    private var infeasible: [Symbol] = []
    private var objective = Row()
    private var artificial: Row?
    private var nextID = 0

    public init() {}

    public var constraintCount: Int { constraints.count }

    public func contains(_ c: Constraint) -> Bool { constraints[c] != nil }

    // MARK: Constraints

    /// Adds a constraint and re-optimizes. A required constraint that contradicts
    /// the others is refused, and the solver is left exactly as it was.
    public func add(_ c: Constraint) throws(Failure) {
        guard constraints[c] == nil else { throw .duplicate(c.description) }
        // Only a required constraint can be refused, and only after makeRow, which
        // may have met new variables; undoing those is cheap, and the tableau is
        // copied only on the one path that can fail after changing it.
        let nextIDBefore = nextID
        var created: [Variable] = []
        var (row, tag) = makeRow(c, created: &created)
        func refuse() -> Failure {
            for v in created { symbols.removeValue(forKey: v) }
            nextID = nextIDBefore
            slot.removeLast(slot.count - 1 - nextID)
            return .unsatisfiable(c.description)
        }
        var subject = chooseSubject(row, tag)
        if subject == nil && row.cells.allSatisfy({ $0.symbol.isDummy }) {
            guard nearZero(row.constant) else { throw refuse() }
            subject = tag.marker
        }
        if let subject {
            row.solve(for: subject)
            substitute(subject, row)
            insertRow(subject, row)
        } else {
            let before = snapshot()
            guard addWithArtificialVariable(row) else {
                restore(before)
                throw refuse()
            }
        }
        constraints[c] = tag
        optimize(.objective)
    }

    public func remove(_ c: Constraint) throws(Failure) {
        guard let tag = constraints.removeValue(forKey: c) else { throw .unknown(c.description) }
        removeErrorEffects(tag, weight: c.priority.weight)
        if removeRow(tag.marker) == nil {
            guard let leaving = markerLeavingSymbol(tag.marker), var row = removeRow(leaving) else {
                preconditionFailure("Solver: no row to remove \(c) from; the tableau is corrupt")
            }
            row.solve(for: leaving, replacing: tag.marker)
            substitute(tag.marker, row)
        }
        optimize(.objective)
    }

    /// The tableau as phase one of the simplex method finds it; taking it costs a
    /// copy of the row arrays (not of the rows' cells) at the first pivot.
    private struct Snapshot {
        var basics: [Symbol]
        var rowData: [Row]
        var slot: [Int32]
        var infeasible: [Symbol]
        var objective: Row
    }

    private func snapshot() -> Snapshot {
        Snapshot(basics: basics, rowData: rowData, slot: slot, infeasible: infeasible, objective: objective)
    }

    private func restore(_ s: Snapshot) {
        (basics, rowData, slot, infeasible, objective) = (s.basics, s.rowData, s.slot, s.infeasible, s.objective)
        artificial = nil
    }

    // MARK: Edit variables

    /// Makes `v` suggestible at `priority` (not required).
    public func addEditVariable(_ v: Variable, priority: Priority) throws(Failure) {
        guard edits[v] == nil else { throw .duplicateEditVariable(v.name) }
        guard !priority.isRequired else { throw .requiredEditVariable(v.name) }
        let c = Constraint(v.expression, .equal, priority: priority, label: "edit \(v.name)")
        try add(c)
        edits[v] = Edit(tag: constraints[c]!, constraint: c, constant: 0)
    }

    public func removeEditVariable(_ v: Variable) throws(Failure) {
        guard let edit = edits.removeValue(forKey: v) else { throw .unknownEditVariable(v.name) }
        try remove(edit.constraint)
    }

    /// Asks for `v == value`, as strongly as `v`'s edit priority; re-solves with the
    /// dual simplex method from the current solution.
    public func suggest(_ v: Variable, _ value: Double) throws(Failure) {
        guard var edit = edits[v] else { throw .unknownEditVariable(v.name) }
        let delta = value - edit.constant
        edit.constant = value
        edits[v] = edit
        defer { dualOptimize() }
        if let i = rowIndex(edit.tag.marker) {
            rowData[i].constant -= delta
            if rowData[i].constant < 0 { infeasible.append(edit.tag.marker) }
            return
        }
        if let other = edit.tag.other, let i = rowIndex(other) {
            rowData[i].constant += delta
            if rowData[i].constant < 0 { infeasible.append(other) }
            return
        }
        for i in rowData.indices {
            let c = rowData[i].coefficient(edit.tag.marker)
            guard c != 0 else { continue }
            rowData[i].constant += delta * c
            if rowData[i].constant < 0 && !basics[i].isExternal { infeasible.append(basics[i]) }
        }
    }

    // MARK: Reading the solution

    /// Writes the solution into every variable the constraints mention.
    public func updateVariables() {
        for (variable, symbol) in symbols {
            variable.value = rowIndex(symbol).map { rowData[$0].constant } ?? 0
        }
    }

    // MARK: The tableau

    private func newSymbol(_ kind: Symbol.Kind) -> Symbol {
        nextID += 1
        slot.append(-1)
        return Symbol(serial: nextID, kind: kind)
    }

    private func rowIndex(_ s: Symbol) -> Int? {
        let i = slot[s.serial]
        return i < 0 ? nil : Int(i)
    }

    private func insertRow(_ s: Symbol, _ row: Row) {
        slot[s.serial] = Int32(basics.count)
        basics.append(s)
        rowData.append(row)
    }

    private func removeRow(_ s: Symbol) -> Row? {
        guard let i = rowIndex(s) else { return nil }
        slot[s.serial] = -1
        let last = basics.count - 1
        if i != last {
            basics.swapAt(i, last)
            rowData.swapAt(i, last)
            slot[basics[i].serial] = Int32(i)
        }
        basics.removeLast()
        return rowData.removeLast()
    }

    /// The constraint as a row of the tableau, in terms of the current parametric
    /// symbols, with the slack, error or dummy symbols its relation needs.
    private func makeRow(_ c: Constraint, created: inout [Variable]) -> (Row, Tag) {
        var row = Row(constant: c.expression.constant)
        for term in c.expression.terms where !nearZero(term.coefficient) {
            let s: Symbol
            if let known = symbols[term.variable] {
                s = known
            } else {
                s = newSymbol(.external)
                symbols[term.variable] = s
                created.append(term.variable)
            }
            if let i = rowIndex(s) { row.add(rowData[i], times: term.coefficient) } else { row.add(s, term.coefficient) }
        }
        let weight = c.priority.weight
        let tag: Tag
        switch c.relation {
        case .lessOrEqual, .greaterOrEqual:
            let sign: Double = c.relation == .lessOrEqual ? 1 : -1
            let slack = newSymbol(.slack)
            row.add(slack, sign)
            if c.priority.isRequired {
                tag = Tag(marker: slack)
            } else {
                let error = newSymbol(.error)
                row.add(error, -sign)
                objective.add(error, weight)
                tag = Tag(marker: slack, other: error)
            }
        case .equal:
            if c.priority.isRequired {
                let dummy = newSymbol(.dummy)
                row.add(dummy, 1)
                tag = Tag(marker: dummy)
            } else {
                let plus = newSymbol(.error), minus = newSymbol(.error)
                row.add(plus, -1)
                row.add(minus, 1)
                objective.add(plus, weight)
                objective.add(minus, weight)
                tag = Tag(marker: plus, other: minus)
            }
        }
        if row.constant < 0 { row.negate() }
        return (row, tag)
    }

    private func chooseSubject(_ row: Row, _ tag: Tag) -> Symbol? {
        if let external = row.cells.first(where: { $0.symbol.isExternal }) { return external.symbol }
        if tag.marker.isPivotable && row.coefficient(tag.marker) < 0 { return tag.marker }
        if let other = tag.other, other.isPivotable && row.coefficient(other) < 0 { return other }
        return nil
    }

    /// Phase one of the simplex method for a row with no obvious subject.
    private func addWithArtificialVariable(_ row: Row) -> Bool {
        let art = newSymbol(.slack)
        insertRow(art, row)
        artificial = row
        optimize(.artificial)
        let feasible = nearZero(artificial!.constant)
        artificial = nil
        if var basic = removeRow(art) {
            if basic.isEmpty { return feasible }
            guard let entering = basic.cells.first(where: { $0.symbol.isPivotable })?.symbol else { return false }
            basic.solve(for: art, replacing: entering)
            substitute(entering, basic)
            insertRow(entering, basic)
        }
        for i in rowData.indices { rowData[i].remove(art) }
        objective.remove(art)
        return feasible
    }

    private func substitute(_ symbol: Symbol, _ row: Row) {
        // One exclusive access to each array for the whole walk, not two per row.
        basics.withUnsafeBufferPointer { basics in
            rowData.withUnsafeMutableBufferPointer { rows in
                for i in rows.indices {
                    rows[i].substitute(symbol, row)
                    if rows[i].constant < 0 && !basics[i].isExternal { infeasible.append(basics[i]) }
                }
            }
        }
        objective.substitute(symbol, row)
        artificial?.substitute(symbol, row)
    }

    private enum Target { case objective, artificial }

    /// Primal simplex: pivots until no coefficient of the target row can improve it.
    /// The target is named, not passed: every pivot rewrites it through `substitute`.
    private func optimize(_ which: Target) {
        while true {
            // The lowest improving symbol: the cells are sorted, so the first found.
            let entering = (which == .objective ? objective : artificial!).cells.first {
                !$0.symbol.isDummy && $0.coefficient < -epsilon
            }?.symbol
            guard let entering else { return }
            var best = PivotChoice()
            basics.withUnsafeBufferPointer { basics in
                rowData.withUnsafeBufferPointer { rows in
                    for i in rows.indices where !basics[i].isExternal {
                        let c = rows[i].coefficient(entering)
                        if c < -epsilon { best.offer(-rows[i].constant / c, basics[i]) }
                    }
                }
            }
            guard let leaving = best.symbol else {
                preconditionFailure("Solver: the objective is unbounded; the tableau is corrupt")
            }
            var row = removeRow(leaving)!
            row.solve(for: leaving, replacing: entering)
            substitute(entering, row)
            insertRow(entering, row)
        }
    }

    /// Dual simplex: restores feasibility after a suggested value moved constants.
    private func dualOptimize() {
        while let leaving = infeasible.popLast() {
            guard let i = rowIndex(leaving), rowData[i].constant < 0 else { continue }
            var best = PivotChoice()
            for cell in rowData[i].cells where cell.coefficient > epsilon && !cell.symbol.isDummy {
                best.offer(objective.coefficient(cell.symbol) / cell.coefficient, cell.symbol)
            }
            guard let entering = best.symbol else {
                preconditionFailure("Solver: dual optimization found no entering symbol; the tableau is corrupt")
            }
            var row = removeRow(leaving)!
            row.solve(for: leaving, replacing: entering)
            substitute(entering, row)
            insertRow(entering, row)
        }
    }

    private func removeErrorEffects(_ tag: Tag, weight: Double) {
        for symbol in [tag.marker, tag.other].compactMap({ $0 }) where symbol.kind == .error {
            if let i = rowIndex(symbol) { objective.add(rowData[i], times: -weight) } else { objective.add(symbol, -weight) }
        }
    }

    /// Which basic symbol to pivot out so that `marker` becomes basic and can go.
    private func markerLeavingSymbol(_ marker: Symbol) -> Symbol? {
        var first: (Double, Symbol)?, second: (Double, Symbol)?, third: Symbol?
        for (symbol, row) in zip(basics, rowData) {
            let c = row.coefficient(marker)
            guard c != 0 else { continue }
            if symbol.isExternal {
                if third == nil || symbol < third! { third = symbol }
            } else if c < 0 {
                let r = -row.constant / c
                if first == nil || r < first!.0 || (r == first!.0 && symbol < first!.1) { first = (r, symbol) }
            } else {
                let r = row.constant / c
                if second == nil || r < second!.0 || (r == second!.0 && symbol < second!.1) { second = (r, symbol) }
            }
        }
        return first?.1 ?? second?.1 ?? third
    }
}

/// The minimum-ratio test of both simplex methods: the smallest ratio wins, and
/// among ratios equal within `epsilon` the lowest symbol id (Bland's rule).
private struct PivotChoice {
    private(set) var symbol: Symbol?
    private var ratio = Double.infinity

    mutating func offer(_ r: Double, _ s: Symbol) {
        guard let current = symbol else {
            (ratio, symbol) = (r, s)
            return
        }
        if r < ratio - epsilon || (abs(r - ratio) <= epsilon && s < current) { (ratio, symbol) = (r, s) }
    }
}

let epsilon = 1e-8
func nearZero(_ v: Double) -> Bool { abs(v) < epsilon }
