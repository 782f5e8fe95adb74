import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

// Seed 004: paging UIs, three ways, and rotation (S4-1 … S4-4).

/// Seed 004's root: a tab bar of its own (containers nest, S3-1) with one tab per
/// paging style — a fixed number of pages (S4-1), pages with an upper bound (S4-2), and
/// a page view controller for many pages (S4-3). Each keeps its current page across a
/// resize (S4-4). The tabs are made by name, so each may run in another process.
public final class Seed004: TabBarController {
    /// The tabs in order: registered class name, the child's id, the tab title.
    public nonisolated static let styles: [(name: String, id: String, title: String)] = [
        ("Seed004Fixed", "Fixed", "S4-1 fixed"),
        ("Seed004Bounded", "Bounded", "S4-2 bounded"),
        ("Seed004Pager", "Pager", "S4-3 pager"),
    ]

    public let registry: ControllerRegistry

    public init(registry: ControllerRegistry, id: ControllerID = "Seed004") {
        self.registry = registry
        super.init(id: id)
        title = "Paging"
        viewControllers = Self.styles.compactMap { style in
            guard let id = ControllerID(style.id), let child = registry.make(style.name, id: id) else {
                View.diagnostics("Seed004: no controller registered as '\(style.name)'; its tab is left out.")
                return nil
            }
            child.title = style.title
            return child
        }
    }
}
