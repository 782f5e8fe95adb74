import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

/// Modal presentation across the placements (issue 23): a presenter with an in-process
/// child, `Inner`, that presents a `ParityPresented` ("Sheet") asked of the registry —
/// where placement is decided — from itself or from its child.
public final class ParityPresenter: ViewController, AdaptivePresentationControllerDelegate {
    public let registry: ControllerRegistry
    public let inner = ParityStep(id: "Inner")
    /// What the presented sheet's presentation controller answers in a compact width: nil
    /// for the terminal's own adaptation (full screen).
    public var adaptiveAnswer: ModalPresentationStyle?
    /// Whether a presentation that begins adapted shows the sheet in a navigation
    /// controller, "SheetNav" (the delegate's `viewControllerForAdaptivePresentationStyle`).
    public var wrapsWhenAdapted = false
    public private(set) var sheet: ViewController?

    public init(registry: ControllerRegistry, id: ControllerID = "Container") {
        self.registry = registry
        super.init(id: id)
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        addChild(inner)
        view.addSubview(inner.view)
        inner.view.frame = Rect(x: 2, y: 1, width: 20, height: 5)
        inner.didMove(toParent: self)
        // Where an 80×24 window's sheet goes: hidden while the sheet is composed above it.
        let beneath = Label("beneath the sheet")
        beneath.frame = Rect(x: 31, y: 12, width: 17, height: 1)
        view.addSubview(beneath)
    }

    /// Presents "Sheet" in `style` (at 20×6 when a sheet) from `presenter`, or this
    /// controller; `Inner` defines the presentation context. Made once and presented again
    /// after, in every placement alike (a process hosts one controller).
    public func presentSheet(_ style: ModalPresentationStyle, from presenter: ViewController? = nil, animated: Bool = false) {
        guard let s = sheet ?? registry.make("ParityPresented", id: "Sheet") else { return }
        sheet = s
        s.modalPresentationStyle = style
        s.preferredContentSize = Size(width: 20, height: 6)
        s.presentationController.delegate = self
        inner.definesPresentationContext = true
        (presenter ?? self).present(s, animated: animated) { [unowned self] in logCallback("presented") }
    }

    /// `Inner`'s "push" presents the sheet as a form sheet, if nothing is presented: a
    /// presentation by input, for a session driven by taps.
    public override func handle(_ request: Request, from child: ViewController) -> Reply? {
        logCallback("asked \(request.name)")
        if request.name == "push", presentedViewController == nil { presentSheet(.formSheet) }
        return Reply(status: .ok)
    }

    public func adaptivePresentationStyle(for controller: PresentationController, traitCollection: TraitCollection) -> ModalPresentationStyle {
        adaptiveAnswer ?? .fullScreen
    }

    public func presentationController(
        _ controller: PresentationController, viewControllerForAdaptivePresentationStyle style: ModalPresentationStyle
    ) -> ViewController? {
        guard wrapsWhenAdapted else { return nil }
        logCallback("wraps for \(style.rawValue)")
        return NavigationController(rootViewController: controller.presentedViewController, registry: registry, id: "SheetNav")
    }

    public func presentationControllerWillDismiss(_ controller: PresentationController) { logCallback("person dismisses") }
    public func presentationControllerDidDismiss(_ controller: PresentationController) { logCallback("person dismissed") }
}

/// What is presented: a text field "s" and a "close" button that dismisses it from its
/// own process. It logs what the scenarios compare beyond the callbacks: the presentation
/// flags in its appearance callbacks, its size once appeared, its size transitions.
public final class ParityPresented: ViewController {
    private let field = ParityFocus.field("s", frame: Rect(x: 1, y: 0, width: 10, height: 1))
    /// What its field said when its process saved its state: restored after a restart.
    private var restored: String?

    /// F3 "Close", which dismisses it as its button does.
    public override var keyCommands: [KeyCommand] {
        [KeyCommand(Key(.f3), title: "Close") { [unowned self] in dismiss(animated: false) { self.logCallback("dismissed") } }]
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .indexed(5)
        ParityFocus.log(field, "s", of: self)
        field.addAction(for: .editingChanged) { [unowned self] _ in setNeedsStateSave() }
        if let restored {
            field.text = restored
            logCallback("restored \(restored)")
        }
        view.addSubview(field)
        let close = Button(title: "close")
        close.identifier = "close"
        close.frame = Rect(x: 1, y: 2, width: 7, height: 1)
        close.addAction { [unowned self] _ in dismiss(animated: false) { self.logCallback("dismissed") } }
        view.addSubview(close)
    }

    public override func encodeRestorableState(with coder: RestorationCoder) {
        coder.encode(field.text, forKey: "s")
    }

    public override func decodeRestorableState(with coder: RestorationCoder) {
        restored = coder.decode(String.self, forKey: "s")
    }

    public override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        if isBeingPresented { logCallback("isBeingPresented") }
        logCallback("presented \(presentingViewController != nil), parent \(parent.map(\.id.rawValue) ?? "nil")")
    }

    public override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        logCallback("size \(view.bounds.width)×\(view.bounds.height)")
    }

    public override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        if isBeingDismissed { logCallback("isBeingDismissed") }
    }

    public override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        logSizeTransition(to: size, with: coordinator)
        super.viewWillTransition(to: size, with: coordinator)
    }
}

/// A child that presents (issue 23, docs/LIFECYCLE.md "Presented from a child in another
/// process"): its buttons "full", "sheet" and "over" present a `ParityPresented` ("Modal",
/// 20×6 when a sheet) made in its own process, full screen, as a form sheet, or over the
/// current context — which covers what it would in one process wherever the child runs.
public final class ParityChildPresenter: ViewController {
    public private(set) var modal: ParityPresented?

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .indexed(4)
        for (row, (title, style)) in [("full", ModalPresentationStyle.fullScreen), ("sheet", .formSheet), ("over", .overCurrentContext)].enumerated() {
            let button = Button(title: title)
            button.identifier = title
            button.frame = Rect(x: 1, y: row, width: 7, height: 1)
            button.addAction { [unowned self] _ in presentModal(style) }
            view.addSubview(button)
        }
    }

    /// Presents "Modal" in `style`; made once, presented again after — unless this
    /// presents already (UIKit's idiom, which needs the relation in any process).
    public func presentModal(_ style: ModalPresentationStyle) {
        if let current = presentedViewController { return logCallback("presents \(current.id) already") }
        let m = modal ?? ParityPresented(id: "Modal")
        modal = m
        m.modalPresentationStyle = style
        m.preferredContentSize = Size(width: 20, height: 6)
        let result = present(m, animated: false) { [unowned self] in
            logCallback("presented")
            logCallback("presents \(presentedViewController?.id.rawValue ?? "nil"), by \(m.presentingViewController?.id.rawValue ?? "nil")")
        }
        if case .failure(let refusal) = result { logCallback("refused: \(refusal.message)") }
    }
}
