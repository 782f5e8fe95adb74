import TrellisCanvas
import TrellisViews

/// The view that fills a window and holds the root controller's view: the last view of
/// every responder chain in the window, the holder of the window's one focus, and how a
/// view finds the window it is shown in.
public final class WindowRootView: View {
    /// Weak: the window owns this view.
    public internal(set) weak var window: Window?
    /// The window's one focus system, which its tree hands every view (`View.focusSystem`).
    public let focus = FocusSystem()
    /// The modal presentations in the window, bottom first (Presentation.swift).
    var presentations: [Presentation] = []
    /// True while a presentation or dismissal moves: another is refused meanwhile.
    var presentationMoving = false
    /// Run when the presentation or dismissal under way ends.
    var afterPresentationMove: [() -> Void] = []

    public required init(frame: Rect = .zero) {
        super.init(frame: frame)
        identifier = "window"
        focus.didChange = { [weak self] _, _ in self?.window?.refreshKeyCommandFooters() }
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        layOutPresentations()
    }

    /// Tab and Shift-Tab that no responder took move focus, as Textual's app-level
    /// bindings do: a view that wants Tab (a text view inserting it) takes it first. With
    /// a controller presented, focus moves only among its views: a modal blocks the rest.
    public override func pressesBegan(_ presses: Set<Press>) {
        guard let press = presses.first, press.key.special == .tab, press.key.modifiers.isSubset(of: .shift),
              focus.moveFocus(forward: !press.key.modifiers.contains(.shift), in: presentations.last?.container ?? self)
        else { return super.pressesBegan(presses) }
    }
}

extension Window {
    /// The window's first responder, if any view has focus.
    public var focusedView: View? { (rootView as? WindowRootView)?.focus.focusedView }
}
