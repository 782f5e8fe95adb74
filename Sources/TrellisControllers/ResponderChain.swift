import TrellisViews

/// Where the responder chain goes after a controller (UIKit's `UIViewController.next`).
///
/// UIKit documents that a controller's next responder is its view's superview. A
/// controller whose view is in no tree (a tab not selected, a child not yet shown)
/// still has a place in the chain: its parent, so that walking `next` from any child
/// reaches its parent and, from the root, the window. A child whose parent runs in
/// another process sits in its host's window, not in the parent's tree; its next
/// responder is the `ParentProxy` that stands for that parent.
enum ResponderChain {
    static func next(of controller: ViewController) -> Responder? {
        guard let superview = controller.viewIfLoaded?.superview else { return controller.parent }
        guard let parent = controller.parent else { return superview }
        // In the parent's own tree (or the tree of a view the parent owns): UIKit's answer.
        if superview.layoutRoot.owner === parent { return superview }
        return parent
    }
}
