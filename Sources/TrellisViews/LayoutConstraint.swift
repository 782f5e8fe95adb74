import Foundation
import Synchronization
import TrellisLayout

/// `first = second × multiplier + constant` (or ≤, ≥) at a priority: UIKit's
/// `NSLayoutConstraint`, solved by TrellisLayout's Cassowary solver.
///
/// Activating a constraint installs it on the nearest common ancestor of its views
/// (UIKit's rule); with no common ancestor it stays inactive and the reason is reported
/// to `View.diagnostics`. Changing `constant` of an active constraint re-solves
/// incrementally on the next layout pass.
public final class LayoutConstraint: CustomStringConvertible {
    public enum Relation: String, Sendable { case equal = "==", lessOrEqual = "<=", greaterOrEqual = ">=" }

    public let first: LayoutAnchor
    public let relation: Relation
    public let second: LayoutAnchor?
    public let multiplier: Double
    public var constant: Double { didSet { if constant != oldValue { changed() } } }
    /// 1…1000; 1000 is required. UIKit forbids changing a required constraint to
    /// optional while active; here any change simply re-solves.
    public var priority: Priority = .required { didSet { if priority != oldValue { changed() } } }
    /// Shown in diagnostics.
    public var identifier: String?

    /// The view it is installed on while active.
    public private(set) weak var host: View?
    /// Set when the solver refused the constraint (a required one that contradicts the
    /// others): it stays active, as in UIKit, but is not enforced until it changes.
    public internal(set) var isBroken = false

    init(first: LayoutAnchor, relation: Relation, second: LayoutAnchor?, multiplier: Double, constant: Double) {
        self.first = first
        self.relation = relation
        self.second = second
        self.multiplier = multiplier
        self.constant = constant
    }

    public var isActive: Bool {
        get { host != nil }
        set { newValue ? activate() : deactivate() }
    }

    public static func activate(_ constraints: [LayoutConstraint]) {
        for c in constraints { c.isActive = true }
    }

    public static func deactivate(_ constraints: [LayoutConstraint]) {
        for c in constraints { c.isActive = false }
    }

    /// The same constraint at `priority`, for chaining at creation.
    public func withPriority(_ priority: Priority) -> LayoutConstraint {
        self.priority = priority
        return self
    }

    public var views: [View] { [first.view] + (second.map { [$0.view] } ?? []) }

    private func activate() {
        guard host == nil else { return }
        guard let ancestor = Self.commonAncestor(views) else {
            View.diagnostics(
                "Unable to activate constraint \(self): its views have no common ancestor. "
                    + "Add both views to the same tree first.")
            return
        }
        let domain = ancestor.layoutRoot
        if let inside = views.first(where: { $0.layoutRoot !== domain && !($0.hasOwner && $0.superview?.layoutRoot === domain) }) {
            View.diagnostics(
                "Unable to activate constraint \(self): \(inside.debugName) is inside the view tree of another controller. "
                    + "A container constrains only its child's root view, never what is inside it.")
            return
        }
        ancestor.installedConstraints.append(self)
        host = ancestor
        first.view.constraintsNamingThis += 1
        second?.view.constraintsNamingThis += 1
        isBroken = false
        ancestor.invalidateLayoutEngine()
    }

    private func deactivate() {
        guard let h = host else { return }
        h.installedConstraints.removeAll { $0 === self }
        host = nil
        first.view.constraintsNamingThis -= 1
        second?.view.constraintsNamingThis -= 1
        h.invalidateLayoutEngine()
    }

    private func changed() {
        isBroken = false
        host?.invalidateLayoutEngine()
    }

    /// UIKit deactivates the constraints that tie a view being removed to views outside
    /// its subtree; those installed inside the subtree stay.
    static func deactivateConstraints(crossing removed: View) {
        // Asked of each anchor's view, with no array made per constraint, walking up no
        // further than the constraint's host; a view without subviews (a tab's viewport in
        // its parent's process) is the only view inside itself (issue 20: this runs for
        // every view removed).
        let leaf = removed.subviews.isEmpty
        if leaf && removed.constraintsNamingThis == 0 { return }
        func inside(_ view: View, below host: View) -> Bool { leaf ? view === removed : view.isInside(removed, below: host) }
        var ancestor = removed.superview
        while let a = ancestor {
            for c in a.installedConstraints where inside(c.first.view, below: a) || c.second.map({ inside($0.view, below: a) }) == true {
                c.deactivate()
            }
            ancestor = a.superview
        }
    }

    static func commonAncestor(_ views: [View]) -> View? {
        guard var candidate = views.first else { return nil }
        for v in views.dropFirst() {
            var c: View? = candidate
            while let current = c, !v.isDescendant(of: current) { c = current.superview }
            guard let found = c else { return nil }
            candidate = found
        }
        return candidate
    }

    public var description: String {
        let lhs = "\(first.view.debugName).\(first.attribute)"
        var rhs = second.map { "\($0.view.debugName).\($0.attribute)" } ?? ""
        if multiplier != 1, second != nil { rhs += " × \(multiplier)" }
        if constant != 0 || second == nil { rhs += rhs.isEmpty ? "\(constant)" : " \(constant < 0 ? "-" : "+") \(abs(constant))" }
        let name = identifier.map { "'\($0)' " } ?? ""
        return "<\(name)\(lhs) \(relation.rawValue) \(rhs) @\(priority)>"
    }
}

extension View {
    /// Where layout and view-tree problems are reported (unsatisfiable constraints,
    /// activation without a common ancestor). The controller layer routes it to its log;
    /// the default writes to standard error, as UIKit writes to the console.
    public static var diagnostics: @Sendable (String) -> Void {
        get { diagnosticsSink.withLock { $0 } }
        set { diagnosticsSink.withLock { $0 = newValue } }
    }

    /// Process-wide behind a lock, as standard error is: a tree on any thread reports here.
    private static let diagnosticsSink = Mutex<@Sendable (String) -> Void>({ message in
        FileHandle.standardError.write(Data("trellis: \(message)\n".utf8))
    })

    var debugName: String {
        identifier ?? "\(type(of: self))"
    }
}
