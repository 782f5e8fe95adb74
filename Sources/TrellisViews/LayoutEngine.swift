import TrellisWire
import TrellisCanvas
import TrellisLayout

/// The solver's four variables for one view, in its layout root's coordinates
/// (scroll offsets ignored: content is laid out as if unscrolled), plus a scroll
/// view's content size when constraints from inside it define it (S4-1).
final class LayoutVariables {
    let left: Variable, top: Variable, width: Variable, height: Variable
    lazy var contentWidth = Variable("\(name).contentWidth")
    lazy var contentHeight = Variable("\(name).contentHeight")
    var usesContentSize = false
    private let name: String
    init(_ name: String) {
        self.name = name
        left = Variable("\(name).left")
        top = Variable("\(name).top")
        width = Variable("\(name).width")
        height = Variable("\(name).height")
    }
}

/// Solves the constraints of one layout domain — a layout root's subtree, stopping at
/// other controllers' root views, which it sees as leaves — and hands frames out.
///
/// Incremental: the solver lives as long as the domain, and each pass only adds and
/// removes what changed since the last one (Cassowary re-solves from the previous
/// solution). Views with `translatesAutoresizingMaskIntoConstraints` keep their frames
/// and enter the solver as required constants, as UIKit's autoresizing constraints do.
final class LayoutEngine {
    unowned let root: View
    private let solver = Solver()
    private var dirty = true
    /// What is in the solver for each user constraint, keyed by identity.
    private var installed: [ObjectIdentifier: (LayoutConstraint, [Constraint])] = [:]
    /// The fixed-frame constraints of each view, and the frame they encode.
    private var fixed: [ObjectIdentifier: (View, Rect, Bool, [Constraint])] = [:]
    private var intrinsic: [ObjectIdentifier: (View, Size, [Constraint])] = [:]
    /// Solved frames (in superview coordinates) of constraint-placed views.
    private var solvedFrames: [ObjectIdentifier: Rect] = [:]

    init(root: View) { self.root = root }

    func invalidate() {
        dirty = true
        intrinsicMayHaveChanged.removeAll()
    }

    /// Views whose intrinsic content size may have changed since the last solve while
    /// nothing else in the domain did: a label's new text, most often as wide as the old.
    /// The next solve is skipped when each still wants the size it is in the solver with.
    private var intrinsicMayHaveChanged: [View] = []

    func invalidateIntrinsicSize(of view: View) {
        guard !dirty else { return }
        intrinsicMayHaveChanged.append(view)
    }

    /// Whether every view in `intrinsicMayHaveChanged` wants the size the solver has for
    /// it (none, if it had none): solving again would then find the same frames.
    private var intrinsicSizesStand: Bool {
        intrinsicMayHaveChanged.allSatisfy { v in
            guard let entry = intrinsic[ObjectIdentifier(v)] else { return v.intrinsicContentSize == nil }
            return entry.0 === v && v.intrinsicContentSize == entry.1
        }
    }

    /// Views in the domain, top down; foreign roots included as leaves.
    private func domain() -> [View] {
        var out: [View] = []
        func walk(_ v: View) {
            out.append(v)
            if v !== root, v.hasOwner { return }
            for s in v.subviews { walk(s) }
        }
        walk(root)
        return out
    }

    /// How many times the domain was collected and solved again: what a change that
    /// moves nothing should not cost (tests read it).
    private(set) var solves = 0

    func solveIfNeeded() {
        if !dirty, !intrinsicMayHaveChanged.isEmpty, !intrinsicSizesStand { dirty = true }
        intrinsicMayHaveChanged.removeAll(keepingCapacity: true)
        guard dirty else { return }
        dirty = false
        solves += 1
        let views = domain()
        // Ordered, never hashed: which constraint breaks when a set is unsatisfiable, and
        // how an under-determined layout comes out, must not change from run to run.
        var wanted: [LayoutConstraint] = []
        var wantedIDs: Set<ObjectIdentifier> = []
        for v in views where v === root || !v.hasOwner {
            for c in v.installedConstraints where wantedIDs.insert(ObjectIdentifier(c)).inserted { wanted.append(c) }
        }
        guard !wanted.isEmpty || !installed.isEmpty else { solvedFrames = [:]; return }

        // Remove what is gone or changed (a changed constant is remove + add: simple,
        // and still incremental for the rest of the system).
        for (id, (c, parts)) in installed where !wantedIDs.contains(id) || c.host == nil || parts.isEmpty != c.isBroken || stale(c) {
            for p in parts { try? solver.remove(p) }
            installed[id] = nil
        }
        // Every view a constraint mentions gets variables, and so do its ancestors up to
        // the root: positions are in root coordinates and chain through them.
        var referenced: [View] = []
        var referencedIDs: Set<ObjectIdentifier> = []
        for c in wanted {
            for v in c.views {
                var a: View? = v
                while let x = a, x.isDescendant(of: root), referencedIDs.insert(ObjectIdentifier(x)).inserted {
                    referenced.append(x)
                    if x === root { break }
                    a = x.superview
                }
            }
        }
        for v in referenced where v.layoutVariables == nil { v.layoutVariables = LayoutVariables(v.debugName) }
        syncFixedFrames(referenced, referencedIDs)
        syncIntrinsicSizes(referenced, referencedIDs)
        for c in wanted where installed[ObjectIdentifier(c)] == nil {
            installed[ObjectIdentifier(c)] = (c, add(c))
        }
        solver.updateVariables()
        solvedFrames = frames(of: views)
        // As UIKit's engine does when a view's values change: the superview of a view whose
        // solved frame is not the frame it has lays out again, wherever it is in the
        // domain — its `layoutSubviews` applies the frame. Without this, a view inside a
        // view that needed no layout of its own kept its old frame (docs/VIEWS.md).
        for v in views where v !== root {
            if let solved = solvedFrames[ObjectIdentifier(v)], solved != v.frame, let parent = v.superview, !parent.needsLayout {
                parent.setNeedsLayout()
            }
        }
    }

    private var constants: [ObjectIdentifier: (Double, Priority)] = [:]
    private func stale(_ c: LayoutConstraint) -> Bool {
        guard let (k, p) = constants[ObjectIdentifier(c)] else { return true }
        return k != c.constant || p != c.priority
    }

    private func add(_ c: LayoutConstraint) -> [Constraint] {
        constants[ObjectIdentifier(c)] = (c.constant, c.priority)
        let context = c.second.map { [c.first.view, $0.view] } ?? [c.first.view]
        let lhs = expression(c.first, seenFrom: context)
        let rhs = (c.second.map { expression($0, seenFrom: context) } ?? Expression()) * c.multiplier + c.constant
        let relation: Constraint.Relation = switch c.relation {
        case .equal: .equal
        case .lessOrEqual: .lessOrEqual
        case .greaterOrEqual: .greaterOrEqual
        }
        let constraint = Constraint(lhs - rhs, relation, priority: c.priority, label: c.description)
        do {
            try solver.add(constraint)
            c.isBroken = false
            return [constraint]
        } catch {
            c.isBroken = true
            View.diagnostics(
                "Unable to simultaneously satisfy constraints. Will attempt to recover by breaking \(c) (\(error)).")
            return []
        }
    }

    /// An anchor as a linear expression in root coordinates. A scroll view's edges seen
    /// from a view inside it are the edges of its content (UIKit's rule that makes the
    /// content size follow from constraints, S4-1); its width and height stay its frame's.
    private func expression(_ anchor: LayoutAnchor, seenFrom views: [View]) -> Expression {
        let v = anchor.view
        let vars = v.layoutVariables!
        let fromInside = v is ScrollView && views.contains { $0 !== v && $0.isDescendant(of: v) }
        let w: Expression = fromInside && !anchor.attribute.isDimension ? vars.contentWidth.expression : vars.width.expression
        let h: Expression = fromInside && !anchor.attribute.isDimension ? vars.contentHeight.expression : vars.height.expression
        if fromInside && !anchor.attribute.isDimension { vars.usesContentSize = true }
        switch anchor.attribute {
        case .leading: return vars.left.expression
        case .trailing: return vars.left + w
        case .centerX: return vars.left + w * 0.5
        case .width: return w
        case .top: return vars.top.expression
        case .bottom: return vars.top + h
        case .centerY: return vars.top + h * 0.5
        case .height: return h
        }
    }

    /// Views whose frames are set by hand enter as required constants; re-added when
    /// the frame changes.
    private func syncFixedFrames(_ referenced: [View], _ referencedIDs: Set<ObjectIdentifier>) {
        for (id, entry) in fixed where !referencedIDs.contains(id) || !isFixed(entry.0) {
            for p in entry.3 { try? solver.remove(p) }
            fixed[id] = nil
        }
        for v in referenced where isFixed(v) {
            let id = ObjectIdentifier(v)
            let frame = v === root ? Rect(origin: .zero, size: v.frame.size) : v.frame
            let parentReferenced = v !== root && v.superview.map { referencedIDs.contains(ObjectIdentifier($0)) } ?? false
            if let (_, old, oldParent, parts) = fixed[id] {
                if old == frame && oldParent == parentReferenced { continue }
                for p in parts { try? solver.remove(p) }
            }
            let vars = v.layoutVariables!
            var parts: [Constraint] = []
            if v === root {
                parts = [vars.left == 0.0, vars.top == 0.0]
            } else if let parent = v.superview?.layoutVariables, parentReferenced {
                parts = [vars.left == parent.left + Double(frame.minX), vars.top == parent.top + Double(frame.minY)]
            }
            parts += [vars.width == Double(frame.width), vars.height == Double(frame.height)]
            var added: [Constraint] = []
            for p in parts {
                do { try solver.add(p); added.append(p) } catch {
                    View.diagnostics("Unable to simultaneously satisfy constraints. Will attempt to recover by breaking the fixed frame of \(v.debugName) (\(p)).")
                }
            }
            fixed[id] = (v, frame, parentReferenced, added)
        }
    }

    private func isFixed(_ v: View) -> Bool {
        v === root || v.translatesAutoresizingMaskIntoConstraints || v.hasOwner && v.superview == nil
    }

    /// Intrinsic content size: hug at 250, resist compression at 750 (UIKit's defaults).
    private func syncIntrinsicSizes(_ referenced: [View], _ referencedIDs: Set<ObjectIdentifier>) {
        for (id, entry) in intrinsic {
            let v = entry.0
            if !referencedIDs.contains(id) || isFixed(v) || v.intrinsicContentSize != entry.1 {
                for p in entry.2 { try? solver.remove(p) }
                intrinsic[id] = nil
            }
        }
        for v in referenced where intrinsic[ObjectIdentifier(v)] == nil && !isFixed(v) {
            let id = ObjectIdentifier(v)
            guard let size = v.intrinsicContentSize, let vars = v.layoutVariables else { continue }
            let parts = [
                (vars.width <= Double(size.width)).at(.defaultLow), (vars.width >= Double(size.width)).at(.defaultHigh),
                (vars.height <= Double(size.height)).at(.defaultLow), (vars.height >= Double(size.height)).at(.defaultHigh),
            ]
            for p in parts { try? solver.add(p) }
            intrinsic[id] = (v, size, parts)
        }
    }

    /// Rounds each edge once (so neighbours never gap or overlap) and converts root
    /// coordinates into each view's superview coordinates.
    private func frames(of views: [View]) -> [ObjectIdentifier: Rect] {
        var rootOrigin: [ObjectIdentifier: Point] = [ObjectIdentifier(root): .zero]
        var out: [ObjectIdentifier: Rect] = [:]
        for v in views where v !== root {
            guard let parent = v.superview, let origin = rootOrigin[ObjectIdentifier(parent)] else { continue }
            if !isFixed(v), let vars = v.layoutVariables {
                let x0 = Int(vars.left.value.rounded()), y0 = Int(vars.top.value.rounded())
                let x1 = Int((vars.left.value + vars.width.value).rounded())
                let y1 = Int((vars.top.value + vars.height.value).rounded())
                let frame = Rect(x: x0 - origin.x, y: y0 - origin.y, width: x1 - x0, height: y1 - y0)
                out[ObjectIdentifier(v)] = frame
                rootOrigin[ObjectIdentifier(v)] = Point(x: x0, y: y0)
            } else {
                rootOrigin[ObjectIdentifier(v)] = origin + v.frame.origin
            }
            if let scroll = v as? ScrollView, let vars = v.layoutVariables, vars.usesContentSize {
                scroll.contentSizeFromConstraints = Size(
                    width: Int(vars.contentWidth.value.rounded()), height: Int(vars.contentHeight.value.rounded()))
            }
        }
        if let scroll = root as? ScrollView, let vars = root.layoutVariables, vars.usesContentSize {
            scroll.contentSizeFromConstraints = Size(
                width: Int(vars.contentWidth.value.rounded()), height: Int(vars.contentHeight.value.rounded()))
        }
        return out
    }

    /// `layoutSubviews`' default: constraint-placed subviews take their solved frames.
    func applyFrames(toSubviewsOf view: View) {
        solveIfNeeded()
        for sub in view.subviews {
            if let f = solvedFrames[ObjectIdentifier(sub)], !isFixed(sub) { sub.frame = f }
        }
    }
}
