import TrellisCanvas
import TrellisViews
import TrellisWire

/// How a presented controller covers the screen (UIKit's `UIModalPresentationStyle`, the
/// styles that make sense in a terminal; docs/LIFECYCLE.md, "Modal presentation").
public enum ModalPresentationStyle: String, Sendable, CaseIterable {
    /// The default: a form sheet, as UIKit maps `.automatic` for most controllers from iOS 18.
    case automatic
    /// Covers the window; the views beneath leave the window once it is shown, and their
    /// controllers disappear.
    case fullScreen
    /// Covers the window; the views beneath stay, and their controllers stay appeared.
    case overFullScreen
    /// Covers the controller that defines the presentation context (the nearest ancestor of
    /// the presenter, itself included, whose `definesPresentationContext` is true; else the
    /// root of its layer); the views beneath stay.
    case overCurrentContext
    /// Centred over the window at its `preferredContentSize` (two thirds of the window each
    /// way when it has none); the views beneath stay, visible around it.
    case formSheet
    /// No adaptation: what an `AdaptivePresentationControllerDelegate` answers to keep the
    /// style asked for. Never a style to present in (UIKit raises).
    case none

    /// What `.automatic` stands for.
    public var resolved: ModalPresentationStyle { self == .automatic ? .formSheet : self }

    /// Whether the views beneath leave the window (and their controllers disappear).
    var removesViewsBeneath: Bool { resolved == .fullScreen }
}

/// How a presentation moves when animated (UIKit's `UIModalTransitionStyle`).
public enum ModalTransitionStyle: String, Sendable {
    /// Slides up from the bottom edge, and back down when dismissed (UIKit's default).
    case coverVertical
    /// UIKit fades; a terminal cannot, so the view is shown (and taken away) at once.
    case crossDissolve
}

/// The presentation bookkeeping one controller keeps.
struct PresentationState {
    var style: ModalPresentationStyle = .automatic
    var transitionStyle: ModalTransitionStyle = .coverVertical
    var definesContext = false
    var isModalInPresentation = false
    /// Its `presentationController`, made on first access.
    var controller: PresentationController?
    /// What this controller presents (it is the presentation's context): held here, as
    /// UIKit's presenting controller holds what it presented.
    var presenting: Presentation?
    /// The presentation that shows this controller.
    weak var presentedBy: Presentation?
    var isBeingPresented = false
    var isBeingDismissed = false
    /// In a child's process, on its tree's root (the `ParentProxy`): what the parent's
    /// process presents from this tree — a controller of this process, hosted apart. Not
    /// `presenting`: this window does not show it, nor route input to it.
    var presentedViaParentProcess: ViewController?
    /// On that controller: the `ParentProxy` of the tree it is presented from.
    weak var presentingViaParentProcess: ViewController?
}

/// One modal presentation in a window: the controller shown, the controller whose content
/// it covers, and what it took out of the window to do so.
final class Presentation {
    /// The controller shown: the one presented, or what its presentation controller's
    /// delegate gave to show in its place, adapted (PresentationController.swift).
    let presented: ViewController
    /// The controller `present` was given, whose presentation controller decides.
    let original: ViewController
    /// UIKit's `presentingViewController`: the controller the presentation covers — the
    /// root of the presenter's layer, or the one that defines the context.
    weak var context: ViewController?
    /// The style asked for, and the style shown: the same, or what it adapted to
    /// (PresentationController.swift).
    let requested: ModalPresentationStyle
    var style: ModalPresentationStyle
    let transition: ModalTransitionStyle
    let container: PresentationContainerView
    /// The layers whose views a full-screen presentation took out of the window, bottom first.
    var covered: [ViewController] = []
    /// The view that had focus before, given it back when the presentation ends.
    weak var focusBefore: View?
    /// While true, the container leaves the presented view's frame to a dismissal's slide.
    var isLeaving = false
    /// In a presented controller's process, what its own `dismiss` asked to run once the
    /// presenter's process has ended the presentation (RemotePresentation.swift).
    var afterDismissal: [() -> Void] = []
    /// True in a presented controller's process, for the presentation its `ParentProxy`
    /// holds for the presenter's process; false for every presentation made in this one.
    var forAnotherProcess = false

    init(
        presented: ViewController, context: ViewController, style: ModalPresentationStyle, transition: ModalTransitionStyle,
        original: ViewController? = nil, shownIn shown: ModalPresentationStyle? = nil
    ) {
        self.presented = presented
        self.original = original ?? presented
        self.context = context
        requested = style
        self.style = shown ?? style
        self.transition = transition
        container = PresentationContainerView()
        container.presentation = self
    }

    /// Where the presented view goes, in the container's (the window's) coordinates.
    func presentedFrame(in bounds: Rect) -> Rect {
        switch style {
        case .overCurrentContext:
            guard let v = context?.viewIfLoaded, v.focusSystem != nil else { return presented.viewIfLoaded?.frame ?? bounds }
            return v.convert(v.bounds, to: nil).intersection(bounds)
        case .formSheet, .automatic:
            let preferred = presented.preferredContentSize == .zero ? original.preferredContentSize : presented.preferredContentSize
            let width = preferred.width > 0 ? preferred.width : bounds.width * 2 / 3
            let height = preferred.height > 0 ? preferred.height : bounds.height * 2 / 3
            let size = Size(width: max(1, min(width, bounds.width)), height: max(1, min(height, bounds.height)))
            return Rect(
                x: bounds.minX + (bounds.width - size.width) / 2, y: bounds.minY + (bounds.height - size.height) / 2,
                width: size.width, height: size.height)
        case .fullScreen, .overFullScreen, .none:
            return bounds
        }
    }
}

extension Presentation {
    /// After the dismissal of a presentation that showed another controller in place of the
    /// one presented: that one is presented no more, and leaves the container it was put in
    /// (chosen: so that it can be presented again, which a controller with a parent cannot).
    func endShowingInPlaceOfOriginal() {
        guard original !== presented else { return }
        original.presentationState.presentedBy = nil
        guard original.parent != nil, original.isDescendant(of: presented) else { return }
        original.willMove(toParent: nil)
        original.viewIfLoaded?.removeFromSuperview()
        original.removeFromParent()
    }
}

/// Holds one presented controller's view in the window, above everything presented before
/// it; fills the window and places the presented view for its style at each layout.
final class PresentationContainerView: View {
    weak var presentation: Presentation?

    required init(frame: Rect = .zero) {
        super.init(frame: frame)
        identifier = "presentation"
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        guard let p = presentation, !p.isLeaving, let v = p.presented.viewIfLoaded, v.superview === self else { return }
        v.frame = p.presentedFrame(in: bounds)
    }
}

/// Why a presentation was refused; UIKit logs a warning in these cases and presents nothing.
public struct PresentationRefusal: Error, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
    public init(message: String) { self.message = message }
}

extension ViewController {
    // MARK: - Presenting

    /// How this controller is shown when presented (default `.automatic`, a form sheet).
    public var modalPresentationStyle: ModalPresentationStyle {
        get { presentationState.style }
        set { presentationState.style = newValue }
    }

    /// How an animated presentation of this controller moves (default `.coverVertical`).
    public var modalTransitionStyle: ModalTransitionStyle {
        get { presentationState.transitionStyle }
        set { presentationState.transitionStyle = newValue }
    }

    /// Whether an `.overCurrentContext` presentation by this controller or a descendant
    /// covers this controller's view (UIKit's `definesPresentationContext`, default false).
    public var definesPresentationContext: Bool {
        get { presentationState.definesContext }
        set { presentationState.definesContext = newValue }
    }

    /// What this controller, or its nearest ancestor that presents, presents (UIKit's
    /// documented answer).
    /// In a child's process, what the parent's process presents from this tree is that.
    public var presentedViewController: ViewController? {
        var c: ViewController? = self
        while let current = c {
            if let p = current.presentationState.presenting { return p.presented }
            if let p = current.presentationState.presentedViaParentProcess { return p }
            c = current.parent
        }
        return nil
    }

    /// `presentedViewController` as this window shows it: what the parent's process
    /// presents from this tree is not dismissed here (its `dismiss` asks that process).
    var presentedInThisWindow: ViewController? {
        var c: ViewController? = self
        while let current = c {
            if let p = current.presentationState.presenting { return p.presented }
            c = current.parent
        }
        return nil
    }

    /// The controller that presented this one, or the nearest ancestor that was presented
    /// (UIKit's documented answer): the controller the presentation covers. For one
    /// presented from a child's tree by the parent's process, that tree's `ParentProxy`,
    /// which stands for it here.
    public var presentingViewController: ViewController? {
        var c: ViewController = self
        while let p = c.parent { c = p }
        return c.presentationState.presentingViaParentProcess ?? c.presentationState.presentedBy?.context
    }

    /// True while this controller is being presented: from its `viewWillAppear` through its
    /// `viewDidAppear` (UIKit's `isBeingPresented`).
    public var isBeingPresented: Bool { presentationState.isBeingPresented }
    /// True while this controller is being dismissed: from its `viewWillDisappear` through
    /// its `viewDidDisappear` (UIKit's `isBeingDismissed`).
    public var isBeingDismissed: Bool { presentationState.isBeingDismissed }

    /// The presentation showing the layer this controller is in, if it is not the window's root.
    var presentationShowingThisTree: Presentation? {
        var c: ViewController = self
        while let p = c.parent { c = p }
        return c.presentationState.presentedBy
    }

    /// Presents `controller` modally, in its `modalPresentationStyle` (UIKit's
    /// `present(_:animated:completion:)`; docs/LIFECYCLE.md, "Modal presentation").
    ///
    /// The presentation covers the root of this controller's layer — the window's root
    /// controller, or the presented controller this one is in — or, for
    /// `.overCurrentContext`, the nearest ancestor that defines the presentation context.
    /// `completion` runs once the presented controller has appeared. Presenting a
    /// controller that is already presented, that has a parent, or this controller itself
    /// stops, as UIKit raises; presenting from a controller that is presenting already, that
    /// is beneath another presentation, that is not in a window, or while a presentation or
    /// dismissal moves, is refused and logged, as UIKit warns: the result says why.
    @discardableResult
    public func present(
        _ controller: ViewController, animated: Bool, completion: (() -> Void)? = nil
    ) -> Result<Void, PresentationRefusal> {
        precondition(controller !== self, "\(id): presenting itself is not supported (UIKit: \"Application tried to present modally an active controller\").")
        precondition(
            controller.presentationState.presentedBy == nil,
            "\(id): presenting \(controller.id), which is already presented by \(controller.presentingViewController?.id.rawValue ?? "another controller"), is not supported "
                + "(UIKit: \"Application tried to present modally a view controller that is already being presented\"). Dismiss it first, or present a new instance.")
        precondition(
            controller.parent == nil,
            "\(id): presenting \(controller.id), which is a child of \(controller.parent?.id.rawValue ?? ""), is not supported "
                + "(UIKit: \"Application tried to present modally a view controller that has a parent view controller\"). Remove it from its parent first.")
        precondition(controller.hostingWindow == nil, "\(id): presenting \(controller.id), the root controller of a window, is not supported.")
        precondition(
            controller.modalPresentationStyle != .none,
            "\(id): presenting \(controller.id) in style .none is not supported (UIKit: .none is only an adaptive delegate's answer).")
        // In a child's process, with no context defined in this tree: the presentation
        // covers what it would in one process, so the parent's process makes it. Not yet for
        // a stand-in (a chain of processes): it is presented here, one level up.
        if let proxy = layerRoot as? ParentProxy, let presentElsewhere = proxy.presentsInParentProcess, !(controller is RemoteController),
           controller.modalPresentationStyle.resolved != .overCurrentContext || contextDefiner == nil {
            return presentFromParentProcess(controller, by: presentElsewhere, animated: animated, completion: completion)
        }
        let refusal = presentationRefusal(of: controller)
        if let refusal {
            View.diagnostics(refusal.message)
            window?.route(kind: "presentation", from: id, to: controller.id, outcome: .rejected, reason: refusal.message)
            return .failure(refusal)
        }
        let window = window!
        let windowRoot = window.rootView as! WindowRootView
        let layerRoot = self.layerRoot
        let style = controller.modalPresentationStyle.resolved
        let context = style == .overCurrentContext ? (contextDefiner ?? layerRoot) : layerRoot
        // Begun adapted, the delegate may give another controller to show (documented:
        // `presentationController(_:viewControllerForAdaptivePresentationStyle:)`); from
        // here on the presentation's mechanics are that one's.
        let adapted = controller.presentationController.adaptedStyle(style, for: context.traitCollection)
        let original = controller
        let controller = original.presentationController.controllerShown(in: adapted, requested: style)
        if controller !== original {
            precondition(
                controller.parent == nil && controller.presentationState.presentedBy == nil && controller.hostingWindow == nil && controller !== self,
                "\(id): the controller shown for \(original.id) adapted, \(controller.id), has a parent, is presented, is a window's root "
                    + "or the presenter; return a new controller, or the presented one in a new container.")
        }
        let record = Presentation(
            presented: controller, context: context, style: style, transition: original.modalTransitionStyle, original: original,
            shownIn: adapted)
        context.presentationState.presenting = record
        original.presentationState.presentedBy = record
        controller.presentationState.presentedBy = record
        controller.hostingWindow = window
        windowRoot.presentations.append(record)
        windowRoot.presentationMoving = true
        controller.presentationState.isBeingPresented = true
        // A controller in another process hears that it is presented before it loads its
        // view, as an in-process one is presented by then (RemotePresentation.swift).
        (controller as? RemoteController)?.presentationBegins(style: style)
        controller.loadViewIfNeeded()
        // UIKit: a presented controller takes its traits from the controller it covers.
        controller.applyTraits(context.traitCollection)
        if controller === original { record.adapt(to: context.traitCollection) }
        // Keys and Tab go to the presented controller only: a view focused beneath would
        // show as focused where no key can reach it. It gets focus back on dismissal.
        if let focused = window.focusedView {
            record.focusBefore = focused
            _ = focused.resignFirstResponder()
        }
        if style.removesViewsBeneath {
            record.covered = windowRoot.shownLayers
        }
        window.route(kind: "presentation", from: context.id, to: controller.id, outcome: .delivered, reason: nil, detail: "present \(style.rawValue)")
        // Observed order (UIKit logs it, Apple documents none): the covered controllers'
        // will, the presented one's will; the presented one's did, then the covered ones' did.
        for c in record.covered { c.beginAppearanceTransition(false, animated: animated) }
        controller.beginAppearanceTransition(true, animated: animated)
        let container = record.container
        container.frame = windowRoot.bounds
        windowRoot.addSubview(container)
        container.addSubview(controller.view)
        container.setNeedsLayout()
        windowRoot.layoutIfNeeded()
        let finish: (Bool) -> Void = { _ in
            windowRoot.presentationMoving = false
            defer { windowRoot.runAfterPresentationMove() }
            container.setNeedsLayout()
            windowRoot.layoutIfNeeded()
            controller.endAppearanceTransition()
            for c in record.covered {
                windowRoot.layerView(of: c)?.removeFromSuperview()
                c.endAppearanceTransition()
            }
            controller.presentationState.isBeingPresented = false
            window.refreshKeyCommandFooters()
            completion?()
        }
        // A terminal cannot fade: a cross-dissolve shows the view at once and takes no time.
        let duration = animated && record.transition == .coverVertical ? Self.presentationDuration : 0
        if duration > 0 {
            let final = controller.view.frame
            controller.view.frame = final.offsetBy(dx: 0, dy: windowRoot.bounds.height - final.minY)
            window.animator.animate(in: windowRoot, duration: duration, { controller.view.frame = final }, completion: finish)
        } else {
            window.animator.animate(in: windowRoot, duration: duration, {}, completion: finish)
        }
        return .success(())
    }

    /// Dismisses what this controller (or its nearest ancestor that presents) presented,
    /// and everything presented above it; called on a presented controller (or one inside
    /// it) that presents nothing, dismisses that controller — UIKit's documented rule.
    /// Only the topmost moves when animated; the others leave with it. `completion` runs
    /// once they have disappeared. Asked while a presentation or dismissal moves, it waits
    /// for that move to end (logged).
    public func dismiss(animated: Bool, completion: (() -> Void)? = nil) {
        // Presented by a controller in another process: that one dismisses it.
        if presentedInThisWindow == nil, let record = presentationShowingThisTree, record.forAnotherProcess,
           let proxy = record.context as? ParentProxy {
            return proxy.askToDismiss(animated: animated, completion: completion)
        }
        // Nothing presented in this process over or from this tree, whose root stands for a
        // parent in another: UIKit's rule is for that process to apply, where the tree may be
        // inside a presentation (RemotePresentation.swift).
        if presentedInThisWindow == nil, presentationShowingThisTree == nil, let proxy = layerRoot as? ParentProxy {
            return proxy.askParentToDismiss(for: self, animated: animated, completion: completion)
        }
        guard let record = presentedInThisWindow?.presentationState.presentedBy ?? presentationShowingThisTree,
              let window = record.presented.window, let windowRoot = window.rootView as? WindowRootView,
              let index = windowRoot.presentations.firstIndex(where: { $0 === record })
        else {
            completion?()
            return
        }
        guard !windowRoot.presentationMoving else {
            // UIKit refuses with a warning; a click on an alert's button while it still
            // slides in would be lost, so it waits for the move to end instead (chosen).
            window.route(kind: "presentation", from: id, to: record.presented.id, outcome: .event,
                         reason: "dismiss deferred: a presentation or dismissal is in progress")
            windowRoot.afterPresentationMove.append { [weak self] in self?.dismiss(animated: animated, completion: completion) }
            return
        }
        let leaving = Array(windowRoot.presentations[index...])
        let leavingControllers = leaving.map(\.presented)
        // What the leaving full-screen presentations covered and that stays: shown again.
        var uncovered: [ViewController] = []
        for r in leaving {
            for c in r.covered where !leavingControllers.contains(where: { $0 === c }) && !uncovered.contains(where: { $0 === c }) {
                uncovered.append(c)
            }
        }
        windowRoot.presentationMoving = true
        for r in leaving.reversed() {
            window.route(kind: "presentation", from: r.context?.id.rawValue ?? "window", to: r.presented.id, outcome: .delivered, reason: nil, detail: "dismiss")
        }
        // Observed order: the dismissed controllers' will (topmost first), the uncovered
        // ones' will; the uncovered ones' did, then the dismissed ones' did.
        for r in leaving.reversed() where r.presented.appearanceState == .appeared || r.presented.appearanceState == .appearing {
            r.presented.presentationState.isBeingDismissed = true
            (r.presented as? RemoteController)?.dismissalBegins()
            r.presented.beginAppearanceTransition(false, animated: animated)
        }
        let firstLeaving = windowRoot.subviews.firstIndex { $0 === leaving[0].container } ?? windowRoot.subviews.count
        for (i, c) in uncovered.enumerated() {
            c.beginAppearanceTransition(true, animated: animated)
            if let v = windowRoot.layerView(of: c) {
                v.frame = c === window.rootViewController ? windowRoot.bounds : v.frame
                windowRoot.insertSubview(v, at: min(firstLeaving + i, windowRoot.subviews.count))
            }
        }
        windowRoot.setNeedsLayout()
        windowRoot.layoutIfNeeded()
        let top = leaving[leaving.count - 1]
        let finish: (Bool) -> Void = { _ in
            windowRoot.presentationMoving = false
            defer { windowRoot.runAfterPresentationMove() }
            windowRoot.presentations.removeAll { r in leaving.contains { $0 === r } }
            windowRoot.layoutIfNeeded()
            for c in uncovered { c.endAppearanceTransition() }
            for r in leaving.reversed() {
                r.container.removeFromSuperview()
                if r.presented.appearanceState == .disappearing { r.presented.endAppearanceTransition() }
                r.presented.presentationState.isBeingDismissed = false
                r.presented.presentationState.presentedBy = nil
                r.presented.hostingWindow = nil
                r.presented.formerWindow = window
                r.context?.presentationState.presenting = nil
                (r.presented as? RemoteController)?.presentationEnded()
                r.endShowingInPlaceOfOriginal()
            }
            if let back = leaving[0].focusBefore, back.focusSystem != nil { _ = back.becomeFirstResponder() }
            window.refreshKeyCommandFooters()
            completion?()
        }
        let duration = animated && top.transition == .coverVertical ? Self.presentationDuration : 0
        if duration > 0, let v = top.presented.viewIfLoaded {
            top.isLeaving = true
            let gone = v.frame.offsetBy(dx: 0, dy: windowRoot.bounds.height - v.frame.minY)
            window.animator.animate(in: windowRoot, duration: duration, { v.frame = gone }, completion: finish)
        } else {
            window.animator.animate(in: windowRoot, duration: duration, {}, completion: finish)
        }
    }

    /// How long an animated presentation or dismissal moves, in seconds.
    public static var presentationDuration: Double { 0.25 }

    /// The root of the layer this controller is in: the window's root controller, or a
    /// presented controller.
    var layerRoot: ViewController {
        var c: ViewController = self
        while let p = c.parent { c = p }
        return c
    }

    /// The nearest controller from this one up its layer that defines the presentation context.
    private var contextDefiner: ViewController? {
        var c: ViewController? = self
        while let current = c {
            if current.definesPresentationContext { return current }
            c = current.parent
        }
        return nil
    }

    /// Why presenting `controller` from here is refused, or nil (UIKit's warnings).
    private func presentationRefusal(of controller: ViewController) -> PresentationRefusal? {
        guard let window, let windowRoot = window.rootView as? WindowRootView, window.isVisible || !window.drivesRoot,
              viewIfLoaded?.focusSystem != nil
        else {
            return PresentationRefusal(message: "Attempt to present \(controller.id) on \(id), whose view is not in the window hierarchy (UIKit's warning); nothing is presented.")
        }
        if windowRoot.presentationMoving {
            return PresentationRefusal(message: "Attempt to present \(controller.id) on \(id) while a presentation or dismissal is in progress (UIKit's warning); nothing is presented.")
        }
        var c: ViewController? = self
        while let current = c {
            if let p = current.presentationState.presenting {
                return PresentationRefusal(message: "Attempt to present \(controller.id) on \(current.id), which is already presenting \(p.presented.id) (UIKit's warning); nothing is presented. Present from \(p.presented.id), or dismiss it first.")
            }
            c = current.parent
        }
        if let top = windowRoot.presentations.last, top.presented !== layerRoot {
            return PresentationRefusal(message: "Attempt to present \(controller.id) on \(id), which is beneath \(top.presented.id), presented over it; nothing is presented. Present from \(top.presented.id).")
        }
        return nil
    }
}

extension ViewController {
    /// The topmost presented controller of this controller's window when this controller's
    /// layer is beneath it: what takes the touches and keys that reach this controller as
    /// messages — in a child process, from its parent in another — as the window's own go
    /// to it (a modal blocks what is beneath).
    var modalAbove: ViewController? {
        guard let root = window?.rootView as? WindowRootView, let top = root.topPresented, top !== layerRoot else { return nil }
        return top
    }

    /// A touch in this controller's coordinates, routed to `modal` instead.
    func routeTouch(_ input: TouchInput, to modal: ViewController) -> Bool {
        guard let v = viewIfLoaded else { return false }
        return modal.routeTouch(atWindowPoint: v.point(fromChildCoordinates: Point(x: Int(input.x), y: Int(input.y)), to: nil), input)
    }

    /// A presented controller's touch at a point of its window: dropped and logged when it
    /// begins outside its view, else routed in its view's coordinates.
    func routeTouch(atWindowPoint point: Point, _ input: TouchInput) -> Bool {
        guard let v = viewIfLoaded else { return false }
        let local = v.childCoordinates(of: point, from: nil)
        if input.phase == .began, !Rect(origin: .zero, size: v.bounds.size).contains(local) {
            window?.route(kind: "touch", from: "window", to: id, outcome: .dropped,
                          reason: "outside the presented \(id): a modal presentation takes the window's touches")
            return false
        }
        var forwarded = input
        forwarded.x = Int32(local.x)
        forwarded.y = Int32(local.y)
        // As a message: a presented controller in another process takes it over its link.
        return touchMessage(forwarded)
    }
}

extension ViewController {
    /// A wheel turn in this controller's coordinates, for `modal` instead: a modal takes
    /// the wheel as it takes touches.
    func routeScroll(_ input: ScrollInput, to modal: ViewController) -> Bool {
        guard let v = viewIfLoaded else { return false }
        return modal.routeScroll(atWindowPoint: v.point(fromChildCoordinates: Point(x: Int(input.x), y: Int(input.y)), to: nil), input)
    }

    /// A presented controller's wheel turn at a point of its window: dropped and logged
    /// outside its view, else a `scroll` message in its view's coordinates.
    func routeScroll(atWindowPoint point: Point, _ input: ScrollInput) -> Bool {
        guard let v = viewIfLoaded else { return false }
        let local = v.childCoordinates(of: point, from: nil)
        guard Rect(origin: .zero, size: v.bounds.size).contains(local) else {
            window?.route(kind: "scroll", from: "window", to: id, outcome: .dropped,
                          reason: "outside the presented \(id): a modal presentation takes the window's wheel")
            return false
        }
        var forwarded = input
        forwarded.x = Int32(local.x)
        forwarded.y = Int32(local.y)
        return scrollMessage(forwarded)
    }
}

extension WindowRootView {
    /// The controllers at the window's top level whose views are shown: the root controller
    /// and the presented ones, bottom first.
    var shownLayers: [ViewController] {
        subviews.compactMap { v in
            if let c = v.owner as? ViewController { return c }
            return (v as? PresentationContainerView)?.presentation?.presented
        }
    }

    /// The view that holds `layer` at the window's top level: the root controller's view, or
    /// a presented controller's container.
    func layerView(of layer: ViewController) -> View? {
        layer.presentationState.presentedBy?.container ?? layer.viewIfLoaded
    }

    /// The topmost presented controller, which takes the window's touches and keys.
    var topPresented: ViewController? { presentations.last?.presented }

    /// Runs what waited for a presentation or dismissal to end (a dismissal asked meanwhile).
    func runAfterPresentationMove() {
        let pending = afterPresentationMove
        afterPresentationMove.removeAll()
        for run in pending { run() }
    }

    /// Lays each presentation's container over the whole window.
    func layOutPresentations() {
        for p in presentations where p.container.superview === self { p.container.frame = bounds }
    }
}

extension Window {
    /// The controllers presented in this window, bottom first.
    public var presentedViewControllers: [ViewController] {
        (rootView as? WindowRootView)?.presentations.map(\.presented) ?? []
    }

    /// Where the window's touches and keys go: the topmost presented controller — a modal
    /// takes them from everything beneath — else, in a presented controller's own process,
    /// that controller (RemotePresentation.swift), else the root controller.
    var inputController: ViewController? {
        (rootView as? WindowRootView)?.topPresented ?? (rootViewController as? ParentProxy)?.hostedPresentation?.presented
            ?? rootViewController
    }

    /// A touch at a screen point for the input controller, in its view's coordinates.
    func routeTouchFromWindow(_ input: TouchInput) -> Bool {
        guard let target = inputController else { return false }
        guard target !== rootViewController else { return target.routeTouch(input) }
        return target.routeTouch(atWindowPoint: Point(x: Int(input.x), y: Int(input.y)), input)
    }

    /// A presented controller takes the traits of the controller it covers, and hears a
    /// size transition after the root's, at the size its style gives it.
    func presentationsFollowTraits() {
        for p in (rootView as? WindowRootView)?.presentations ?? [] {
            guard let context = p.context else { continue }
            p.presented.applyTraits(context.traitCollection)
            p.adapt(to: context.traitCollection)
        }
    }

    func forwardSizeTransitionToPresentations(_ newSize: Size, with coordinator: TransitionCoordinator) {
        for p in (rootView as? WindowRootView)?.presentations ?? [] {
            // At the size the new traits give it: a sheet crossing into a compact width
            // hears the whole window's size.
            if var traits = p.context?.traitCollection {
                traits.horizontalSizeClass = TraitCollection.sizeClasses(for: newSize).horizontal
                p.adapt(to: traits)
            }
            let size = p.presentedFrame(in: Rect(origin: .zero, size: newSize)).size
            route(kind: "size", from: "window", to: p.presented.id, outcome: .delivered, reason: nil)
            p.presented.pendingCoordinator = coordinator
            p.presented.viewWillTransition(to: size, with: coordinator)
            p.presented.pendingCoordinator = nil
        }
    }
}

extension ParentProxy {
    /// The parent's process is asked to present `controller` from this proxy's tree
    /// (docs/LIFECYCLE.md, "Presented from a child in another process"): from now until
    /// `presentationFromThisTreeEnded`, this tree's `presentedViewController` and its
    /// `presentingViewController` answer as UIKit's would in one process.
    public func presentationFromThisTreeBegins(_ controller: ViewController) {
        presentationState.presentedViaParentProcess = controller
        controller.presentationState.presentingViaParentProcess = self
    }

    /// That presentation ended, was refused, or the parent's process was lost.
    public func presentationFromThisTreeEnded(_ controller: ViewController) {
        guard presentationState.presentedViaParentProcess === controller else { return }
        presentationState.presentedViaParentProcess = nil
        controller.presentationState.presentingViaParentProcess = nil
    }

    /// What the parent's process presents from this tree, if anything.
    public var presentedFromThisTree: ViewController? { presentationState.presentedViaParentProcess }
}
