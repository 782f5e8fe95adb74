/// Which edge, centre or dimension of a view an anchor stands for.
public enum LayoutAttribute: String, Sendable, CaseIterable {
    case leading, trailing, top, bottom, width, height, centerX, centerY

    var isDimension: Bool { self == .width || self == .height }
}

/// One attribute of one view, from which constraints are made (UIKit's
/// `NSLayoutAnchor`). The three kinds below keep nonsense — a width equal to a
/// leading edge — out of the type system, as UIKit's generic anchors do.
public class LayoutAnchor {
    public unowned let view: View
    public let attribute: LayoutAttribute
    init(_ view: View, _ attribute: LayoutAttribute) {
        self.view = view
        self.attribute = attribute
    }

    func make(_ relation: LayoutConstraint.Relation, _ other: LayoutAnchor?, multiplier: Double, constant: Double) -> LayoutConstraint {
        LayoutConstraint(
            first: self, relation: relation, second: other, multiplier: multiplier, constant: constant)
    }
}

/// leading, trailing, centerX.
public final class XAxisAnchor: LayoutAnchor {
    public func constraint(equalTo o: XAxisAnchor, constant: Double = 0) -> LayoutConstraint { make(.equal, o, multiplier: 1, constant: constant) }
    public func constraint(lessThanOrEqualTo o: XAxisAnchor, constant: Double = 0) -> LayoutConstraint { make(.lessOrEqual, o, multiplier: 1, constant: constant) }
    public func constraint(greaterThanOrEqualTo o: XAxisAnchor, constant: Double = 0) -> LayoutConstraint { make(.greaterOrEqual, o, multiplier: 1, constant: constant) }
}

/// top, bottom, centerY.
public final class YAxisAnchor: LayoutAnchor {
    public func constraint(equalTo o: YAxisAnchor, constant: Double = 0) -> LayoutConstraint { make(.equal, o, multiplier: 1, constant: constant) }
    public func constraint(lessThanOrEqualTo o: YAxisAnchor, constant: Double = 0) -> LayoutConstraint { make(.lessOrEqual, o, multiplier: 1, constant: constant) }
    public func constraint(greaterThanOrEqualTo o: YAxisAnchor, constant: Double = 0) -> LayoutConstraint { make(.greaterOrEqual, o, multiplier: 1, constant: constant) }
}

/// width, height: the only anchors with a multiplier and a constant form.
public final class DimensionAnchor: LayoutAnchor {
    public func constraint(equalTo o: DimensionAnchor, multiplier: Double = 1, constant: Double = 0) -> LayoutConstraint { make(.equal, o, multiplier: multiplier, constant: constant) }
    public func constraint(lessThanOrEqualTo o: DimensionAnchor, multiplier: Double = 1, constant: Double = 0) -> LayoutConstraint { make(.lessOrEqual, o, multiplier: multiplier, constant: constant) }
    public func constraint(greaterThanOrEqualTo o: DimensionAnchor, multiplier: Double = 1, constant: Double = 0) -> LayoutConstraint { make(.greaterOrEqual, o, multiplier: multiplier, constant: constant) }
    public func constraint(equalToConstant c: Double) -> LayoutConstraint { make(.equal, nil, multiplier: 1, constant: c) }
    public func constraint(lessThanOrEqualToConstant c: Double) -> LayoutConstraint { make(.lessOrEqual, nil, multiplier: 1, constant: c) }
    public func constraint(greaterThanOrEqualToConstant c: Double) -> LayoutConstraint { make(.greaterOrEqual, nil, multiplier: 1, constant: c) }
}

extension View {
    public var leadingAnchor: XAxisAnchor { XAxisAnchor(self, .leading) }
    public var trailingAnchor: XAxisAnchor { XAxisAnchor(self, .trailing) }
    public var centerXAnchor: XAxisAnchor { XAxisAnchor(self, .centerX) }
    public var topAnchor: YAxisAnchor { YAxisAnchor(self, .top) }
    public var bottomAnchor: YAxisAnchor { YAxisAnchor(self, .bottom) }
    public var centerYAnchor: YAxisAnchor { YAxisAnchor(self, .centerY) }
    public var widthAnchor: DimensionAnchor { DimensionAnchor(self, .width) }
    public var heightAnchor: DimensionAnchor { DimensionAnchor(self, .height) }

    /// The four constraints that make this view fill `other` exactly (S1-2's embed),
    /// activated, and with this view switched to constraint-based placement.
    @discardableResult
    public func pinEdges(to other: View, insets: Int = 0) -> [LayoutConstraint] {
        translatesAutoresizingMaskIntoConstraints = false
        let c = [
            leadingAnchor.constraint(equalTo: other.leadingAnchor, constant: Double(insets)),
            trailingAnchor.constraint(equalTo: other.trailingAnchor, constant: Double(-insets)),
            topAnchor.constraint(equalTo: other.topAnchor, constant: Double(insets)),
            bottomAnchor.constraint(equalTo: other.bottomAnchor, constant: Double(-insets)),
        ]
        LayoutConstraint.activate(c)
        return c
    }
}
