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

    private var rows: [Symbol: Row] = [:]
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
        let before = snapshot()
        do throws(Failure) {
            try insert(c)
        } catch {
            restore(before)
            throw error
        }
    }

    private func insert(_ c: Constraint) throws(Failure) {
        var (row, tag) = makeRow(c)
        var subject = chooseSubject(row, tag)
        if subject == nil && row.cells.keys.allSatisfy({ $0.kind == .dummy }) {
            guard nearZero(row.constant) else { throw .unsatisfiable(c.description) }
            subject = tag.marker
        }
        if let subject {
            row.solve(for: subject)
            substitute(subject, row)
            rows[subject] = row
        } else if !addWithArtificialVariable(row) {
            throw .unsatisfiable(c.description)
        }
        constraints[c] = tag
        optimize(.objective)
    }

    public func remove(_ c: Constraint) throws(Failure) {
        guard let tag = constraints.removeValue(forKey: c) else { throw .unknown(c.description) }
        removeErrorEffects(tag, weight: c.priority.weight)
        if rows.removeValue(forKey: tag.marker) == nil {
            guard let leaving = markerLeavingSymbol(tag.marker), var row = rows.removeValue(forKey: leaving) else {
                preconditionFailure("Solver: no row to remove \(c) from; the tableau is corrupt")
            }
            row.solve(for: leaving, replacing: tag.marker)
            substitute(tag.marker, row)
        }
        optimize(.objective)
    }

    /// Everything `add` may change. Copy-on-write makes taking it cheap until a
    /// failed add needs it.
    private struct Snapshot {
        var rows: [Symbol: Row]
        var symbols: [Variable: Symbol]
        var infeasible: [Symbol]
        var objective: Row
        var nextID: Int
    }

    private func snapshot() -> Snapshot {
        Snapshot(rows: rows, symbols: symbols, infeasible: infeasible, objective: objective, nextID: nextID)
    }

    private func restore(_ s: Snapshot) {
        rows = s.rows
        symbols = s.symbols
        infeasible = s.infeasible
        objective = s.objective
        nextID = s.nextID
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
        if var row = rows[edit.tag.marker] {
            row.constant -= delta
            rows[edit.tag.marker] = row
            if row.constant < 0 { infeasible.append(edit.tag.marker) }
            return
        }
        if let other = edit.tag.other, var row = rows[other] {
            row.constant += delta
            rows[other] = row
            if row.constant < 0 { infeasible.append(other) }
            return
        }
        for (symbol, var row) in rows {
            let c = row.coefficient(edit.tag.marker)
            guard c != 0 else { continue }
            row.constant += delta * c
            rows[symbol] = row
            if row.constant < 0 && symbol.kind != .external { infeasible.append(symbol) }
        }
    }

    // MARK: Reading the solution

    /// Writes the solution into every variable the constraints mention.
    public func updateVariables() {
        for (variable, symbol) in symbols {
            variable.value = rows[symbol]?.constant ?? 0
        }
    }

    // MARK: The tableau

    private func newSymbol(_ kind: Symbol.Kind) -> Symbol {
        nextID += 1
        return Symbol(id: nextID, kind: kind)
    }

    private func symbol(for v: Variable) -> Symbol {
        if let s = symbols[v] { return s }
        let s = newSymbol(.external)
        symbols[v] = s
        return s
    }

    /// The constraint as a row of the tableau, in terms of the current parametric
    /// symbols, with the slack, error or dummy symbols its relation needs.
    private func makeRow(_ c: Constraint) -> (Row, Tag) {
        var row = Row(constant: c.expression.constant)
        for term in c.expression.terms where !nearZero(term.coefficient) {
            let s = symbol(for: term.variable)
            if let basic = rows[s] { row.add(basic, times: term.coefficient) } else { row.add(s, term.coefficient) }
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
        if let external = row.cells.keys.filter({ $0.kind == .external }).min() { return external }
        if tag.marker.isPivotable && row.coefficient(tag.marker) < 0 { return tag.marker }
        if let other = tag.other, other.isPivotable && row.coefficient(other) < 0 { return other }
        return nil
    }

    /// Phase one of the simplex method for a row with no obvious subject.
    private func addWithArtificialVariable(_ row: Row) -> Bool {
        let art = newSymbol(.slack)
        rows[art] = row
        artificial = row
        optimize(.artificial)
        let feasible = nearZero(artificial!.constant)
        artificial = nil
        if var basic = rows.removeValue(forKey: art) {
            if basic.cells.isEmpty { return feasible }
            guard let entering = basic.cells.keys.filter(\.isPivotable).min() else { return false }
            basic.solve(for: art, replacing: entering)
            substitute(entering, basic)
            rows[entering] = basic
        }
        for key in Array(rows.keys) { rows[key]!.remove(art) }
        objective.remove(art)
        return feasible
    }

    private func substitute(_ symbol: Symbol, _ row: Row) {
        for key in Array(rows.keys) {
            rows[key]!.substitute(symbol, row)
            if key.kind != .external && rows[key]!.constant < 0 { infeasible.append(key) }
        }
        objective.substitute(symbol, row)
        artificial?.substitute(symbol, row)
    }

    private enum Target { case objective, artificial }

    /// Primal simplex: pivots until no coefficient of the target row can improve it.
    /// The target is named, not passed: every pivot rewrites it through `substitute`.
    private func optimize(_ which: Target) {
        while true {
            let target = which == .objective ? objective : artificial!
            guard let entering = target.cells.filter({ $0.key.kind != .dummy && $0.value < -epsilon }).keys.min() else {
                return
            }
            var best = PivotChoice()
            for (symbol, row) in rows where symbol.kind != .external {
                let c = row.coefficient(entering)
                if c < -epsilon { best.offer(-row.constant / c, symbol) }
            }
            guard let leaving = best.symbol else {
                preconditionFailure("Solver: the objective is unbounded; the tableau is corrupt")
            }
            var row = rows.removeValue(forKey: leaving)!
            row.solve(for: leaving, replacing: entering)
            substitute(entering, row)
            rows[entering] = row
        }
    }

    /// Dual simplex: restores feasibility after a suggested value moved constants.
    private func dualOptimize() {
        while let leaving = infeasible.popLast() {
            guard var row = rows[leaving], row.constant < 0 else { continue }
            var best = PivotChoice()
            for (symbol, c) in row.cells where c > epsilon && symbol.kind != .dummy {
                best.offer(objective.coefficient(symbol) / c, symbol)
            }
            guard let entering = best.symbol else {
                preconditionFailure("Solver: dual optimization found no entering symbol; the tableau is corrupt")
            }
            rows.removeValue(forKey: leaving)
            row.solve(for: leaving, replacing: entering)
            substitute(entering, row)
            rows[entering] = row
        }
    }

    private func removeErrorEffects(_ tag: Tag, weight: Double) {
        for symbol in [tag.marker, tag.other].compactMap({ $0 }) where symbol.kind == .error {
            if let row = rows[symbol] { objective.add(row, times: -weight) } else { objective.add(symbol, -weight) }
        }
    }

    /// Which basic symbol to pivot out so that `marker` becomes basic and can go.
    private func markerLeavingSymbol(_ marker: Symbol) -> Symbol? {
        var first: (Double, Symbol)?, second: (Double, Symbol)?, third: Symbol?
        for (symbol, row) in rows {
            let c = row.coefficient(marker)
            guard c != 0 else { continue }
            if symbol.kind == .external {
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
