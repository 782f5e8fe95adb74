/// What a tree of views has from whoever owns it — a window, in its host: the loop the
/// tree runs on, its focus system, and who hears that the tree changed. The tree's root
/// holds it (`View.hostedTree`); every view in the tree keeps it (`View.tree`). A view
/// in no such tree (made, not yet shown) changes nothing anyone shows: joining the tree
/// is itself a change of the tree it joins.
public final class ViewTree {
    public let loop: TreeLoop
    /// The one focus system of the tree's views (`View.focusSystem`), if its owner keeps
    /// one: a window does.
    public let focus: FocusSystem?

    private var observers: [(owner: ObjectIdentifier, notify: () -> Void)] = []

    /// `notify` is called each time a view of the tree asks for layout or display —
    /// whatever made it ask: input, a timer, a `Task`, a child's answer — until
    /// `stopObserving(by:)`. A host notes that a frame is due and sends it on the next turn
    /// of its loop, coalesced, so that a change draws itself without a call to anything
    /// host-specific (UIKit draws what `setNeedsLayout`/`setNeedsDisplay` marked on the
    /// run loop's next turn; issue 21). It must only note that a frame is due.
    public func observe(by owner: AnyObject, _ notify: @escaping () -> Void) {
        observers.append((ObjectIdentifier(owner), notify))
    }

    public func stopObserving(by owner: AnyObject) {
        observers.removeAll { $0.owner == ObjectIdentifier(owner) }
    }

    /// A count that moves whenever a view of the tree asks for layout or display: every
    /// change to what the tree shows does one or the other. A window that composed at one
    /// count has nothing new to compose while it stays there.
    public private(set) var changes: UInt64 = 0

    /// A count that moves whenever a view of the tree changes where things are drawn — a
    /// frame, bounds, visibility, clipping, the tree — but not for a change of content
    /// alone (`setNeedsDisplay`), nor for a request for layout (`setNeedsLayout`), which
    /// moves it only if the layout moves something. While it stays where it was after
    /// layout, every controller's viewport is where it was, so a window can recompose the
    /// layers it kept without walking the tree for them again.
    public private(set) var arrangementChanges: UInt64 = 0

    /// A count that moves whenever a view joins or leaves a superview in the tree. While it
    /// stays where it was, the tree holds the views it held: a window finds its footers
    /// again only when it moved (`Window.refreshKeyCommandFooters`).
    public private(set) var treeChanges: UInt64 = 0

    /// The counts are the tree's, not the process's: a view in no tree changes nothing
    /// shown until it joins one (which moves the counts of the tree it joins), and another
    /// tree's change — on this thread or another — never makes this one compose again.
    func changed(arrangement: Bool = false) {
        changes &+= 1
        if arrangement { arrangementChanges &+= 1 }
        for observer in observers { observer.notify() }
    }

    func joinedOrLeft() {
        treeChanges &+= 1
    }

    public init(loop: TreeLoop = MainActorLoop.shared, focus: FocusSystem? = nil) {
        self.focus = focus
        self.loop = loop
    }
}
