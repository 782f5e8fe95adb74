/// What a tree of views has from whoever owns it — a window, in its host: the loop the
/// tree runs on, and who hears that the tree changed. The tree's root holds it
/// (`View.hostedTree`); every view in the tree reaches it from there (`View.tree`). A view
/// in no such tree (made, not yet shown) changes nothing anyone shows: joining the tree
/// is itself a change of the tree it joins.
public final class ViewTree {
    public let loop: TreeLoop

    /// Called each time a view of the tree asks for layout or display — whatever made it
    /// ask: input, a timer, a `Task`, a child's answer. A host notes that a frame is due
    /// and sends it on the next turn of its loop, coalesced, so that a change draws itself
    /// without a call to anything host-specific (UIKit draws what
    /// `setNeedsLayout`/`setNeedsDisplay` marked on the run loop's next turn; issue 21).
    /// It must only note that a frame is due.
    public var changed: (() -> Void)?

    public init(loop: TreeLoop = MainActorLoop.shared) {
        self.loop = loop
    }
}
