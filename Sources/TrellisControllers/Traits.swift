import TrellisCanvas
import TrellisWire

extension ViewController {
    /// The traits this controller lays out for: its parent's, with the parent's override
    /// for it applied; the window's for the root.
    public var traitCollection: TraitCollection { traitStorage ?? TraitCollection() }

    /// Overrides some traits of `child` (fields left `.unspecified` are inherited).
    /// The child, and its subtree, get `traitCollectionDidChange` if that changes theirs.
    /// The override is kept by the child: it is released with it and dropped when the
    /// child leaves this controller, so no other controller ever gets it (LIFECYCLE.md).
    public func setOverrideTraitCollection(_ traits: TraitCollection?, forChild child: ViewController) {
        precondition(child.parent === self, "setOverrideTraitCollection: \(child.id) is not a child of \(id)")
        child.traitOverrideFromParent = traits
        pushTraits(to: child)
    }

    public func overrideTraitCollection(forChild child: ViewController) -> TraitCollection? {
        child.parent === self ? child.traitOverrideFromParent : nil
    }

    /// Takes `traits`; when they differ, calls `traitCollectionDidChange` and then
    /// passes them down — parent before children (top-down).
    func applyTraits(_ traits: TraitCollection) {
        let previous = traitStorage
        guard previous != traits else { return }
        traitStorage = traits
        logCallback("traitCollectionDidChange")
        traitCollectionDidChange(previous)
        for child in children { pushTraits(to: child) }
    }

    func pushTraits(to child: ViewController) {
        let traits = traitCollection.overridden(by: child.traitOverrideFromParent)
        guard child.traitStorage != traits else { return }
        send(.traits(traits.wire), to: child)
    }
}
