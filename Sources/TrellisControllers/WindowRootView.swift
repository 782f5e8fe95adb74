import TrellisCanvas
import TrellisViews

/// The view that fills a window and holds the root controller's view: the last view of
/// every responder chain in the window, and how a view finds the window it is shown in.
@MainActor
public final class WindowRootView: View {
    /// Weak: the window owns this view.
    public internal(set) weak var window: Window?

    public required init(frame: Rect = .zero) {
        super.init(frame: frame)
        identifier = "window"
    }
}
