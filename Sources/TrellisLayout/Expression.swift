/// An unknown of a layout: a view's leading edge, a width … Identity matters, not
/// the name; `value` is what the solver last computed for it.
///
/// Not `Sendable`: a layout belongs to one controller, which owns its variables.
public final class Variable: Hashable, CustomStringConvertible {
    public let name: String
    public internal(set) var value: Double = 0

    public init(_ name: String) { self.name = name }

    public static func == (a: Variable, b: Variable) -> Bool { a === b }
    public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(self)) }
    public var description: String { name }
}

/// `coefficient × variable`.
public struct Term {
    public var variable: Variable
    public var coefficient: Double
    public init(_ variable: Variable, _ coefficient: Double = 1) {
        self.variable = variable
        self.coefficient = coefficient
    }
}

/// A linear expression: the sum of its terms plus a constant.
public struct Expression: CustomStringConvertible {
    public var terms: [Term]
    public var constant: Double

    public init(_ terms: [Term] = [], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }

    public var description: String {
        let parts = terms.map { $0.coefficient == 1 ? $0.variable.name : "\($0.coefficient)·\($0.variable.name)" }
        return (parts + (constant != 0 || parts.isEmpty ? ["\(constant)"] : [])).joined(separator: " + ")
    }
}

/// Anything that can stand on either side of a constraint.
public protocol LinearExpressible {
    var expression: Expression { get }
}

extension Variable: LinearExpressible {
    public var expression: Expression { Expression([Term(self)]) }
}

extension Term: LinearExpressible {
    public var expression: Expression { Expression([self]) }
}

extension Expression: LinearExpressible {
    public var expression: Expression { self }
}

extension Double: LinearExpressible {
    public var expression: Expression { Expression(constant: self) }
}

// MARK: - Arithmetic, so constraints read like equations

public func + (a: some LinearExpressible, b: some LinearExpressible) -> Expression {
    let x = a.expression, y = b.expression
    return Expression(x.terms + y.terms, constant: x.constant + y.constant)
}

public func - (a: some LinearExpressible, b: some LinearExpressible) -> Expression {
    a + b.expression * -1
}

public func * (a: some LinearExpressible, k: Double) -> Expression {
    let x = a.expression
    return Expression(x.terms.map { Term($0.variable, $0.coefficient * k) }, constant: x.constant * k)
}

public func * (k: Double, a: some LinearExpressible) -> Expression { a * k }

public func + (a: some LinearExpressible, k: Double) -> Expression { a + Expression(constant: k) }
public func - (a: some LinearExpressible, k: Double) -> Expression { a + Expression(constant: -k) }
