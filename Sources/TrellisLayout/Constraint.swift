/// How much a constraint matters, as in Auto Layout: 1…1000, 1000 = required.
///
/// The solver turns an optional priority into a weight that grows tenfold every
/// 100 levels: breaking a constraint at priority p by one cell costs as much as
/// breaking ten at p − 100 by one cell each. Auto Layout documents only that
/// higher priorities win; this rule is our choice, and tests pin it down.
public struct Priority: Sendable, Comparable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    public let rawValue: Int

    /// Clamps to 1…1000.
    public init(_ value: Int) { rawValue = min(1000, max(1, value)) }
    public init(integerLiteral value: Int) { self.init(value) }

    public static let required: Priority = 1000
    public static let defaultHigh: Priority = 750
    public static let defaultLow: Priority = 250
    public static let fittingSizeLevel: Priority = 50

    public var isRequired: Bool { rawValue == 1000 }
    var weight: Double { isRequired ? 0 : Self.weights[rawValue] }
    /// weights[p] = 10^(p/100), built by repeated multiplication by 10^(1/100).
    private static let weights: [Double] = {
        let step = 1.023292992280754  // 10^(1/100)
        var w: [Double] = [1]
        for _ in 1...1000 { w.append(w[w.count - 1] * step) }
        return w
    }()

    public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "\(rawValue)" }
}

/// `expression (== | <= | >=) 0`, at a priority.
public final class Constraint: Hashable, CustomStringConvertible {
    public enum Relation: String { case equal = "==", lessOrEqual = "<=", greaterOrEqual = ">=" }

    public let expression: Expression
    public let relation: Relation
    public let priority: Priority
    /// Shown in the log when the constraint is broken or conflicts.
    public let label: String?

    public init(_ expression: Expression, _ relation: Relation, priority: Priority = .required, label: String? = nil) {
        self.expression = expression
        self.relation = relation
        self.priority = priority
        self.label = label
    }

    /// The same constraint at another priority.
    public func at(_ priority: Priority) -> Constraint {
        Constraint(expression, relation, priority: priority, label: label)
    }

    public func labelled(_ label: String) -> Constraint {
        Constraint(expression, relation, priority: priority, label: label)
    }

    public static func == (a: Constraint, b: Constraint) -> Bool { a === b }
    public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(self)) }

    public var description: String {
        "\(label.map { "\($0): " } ?? "")\(expression) \(relation.rawValue) 0 @\(priority)"
    }
}

public func == (a: some LinearExpressible, b: some LinearExpressible) -> Constraint { Constraint(a - b, .equal) }
public func <= (a: some LinearExpressible, b: some LinearExpressible) -> Constraint { Constraint(a - b, .lessOrEqual) }
public func >= (a: some LinearExpressible, b: some LinearExpressible) -> Constraint { Constraint(a - b, .greaterOrEqual) }
