import TrellisCanvas
import TrellisViews
import TrellisWire

/// The stack kind of container (S3-1): a bar with the top controller's title and a back
/// button, and the top controller's view below it. Push slides the new view in from the
/// right over the old one; pop slides it back out. Answers `show` requests by pushing
/// the named controller and `back` requests by popping (S1-3).
@MainActor
open class NavigationController: ViewController {
    public private(set) var viewControllers: [ViewController] = []
    public var topViewController: ViewController? { viewControllers.last }
    /// How long a push or pop slides, in seconds.
    public var slideDuration = 0.25
    public let registry: ControllerRegistry

    public let bar = View()
    public let titleLabel = Label()
    public let backButton = Button(title: "‹ Back")
    public let contentView = View()

    public init(rootViewController: ViewController, registry: ControllerRegistry = .shared, id: ControllerID? = nil) {
        self.registry = registry
        super.init(id: id)
        push(rootViewController, animated: false)
    }

    open override func loadView() {
        let root = View()
        bar.identifier = "navigationBar"
        bar.backgroundColor = .indexed(8)
        titleLabel.alignment = .center
        backButton.identifier = "back"
        contentView.identifier = "navigationContent"
        root.addSubview(contentView)
        root.addSubview(bar)
        bar.addSubview(titleLabel)
        bar.addSubview(backButton)
        bar.translatesAutoresizingMaskIntoConstraints = false
        contentView.translatesAutoresizingMaskIntoConstraints = false
        titleLabel.pinEdges(to: bar)
        backButton.translatesAutoresizingMaskIntoConstraints = false
        LayoutConstraint.activate([
            bar.leadingAnchor.constraint(equalTo: root.leadingAnchor),
            bar.trailingAnchor.constraint(equalTo: root.trailingAnchor),
            bar.topAnchor.constraint(equalTo: root.topAnchor),
            bar.heightAnchor.constraint(equalToConstant: 1),
            backButton.leadingAnchor.constraint(equalTo: bar.leadingAnchor),
            backButton.topAnchor.constraint(equalTo: bar.topAnchor),
            backButton.heightAnchor.constraint(equalToConstant: 1),
            backButton.widthAnchor.constraint(equalToConstant: Double(CharacterWidth.columns(of: backButton.title) + 2)),
            contentView.leadingAnchor.constraint(equalTo: root.leadingAnchor),
            contentView.trailingAnchor.constraint(equalTo: root.trailingAnchor),
            contentView.topAnchor.constraint(equalTo: bar.bottomAnchor),
            contentView.bottomAnchor.constraint(equalTo: root.bottomAnchor),
        ])
        backButton.addAction { [weak self] _ in self?.popViewController(animated: true) }
        view = root
    }

    open override func viewDidLoad() {
        super.viewDidLoad()
        if let top = topViewController { install(top) }
        updateBar()
    }

    open override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        contentView.layoutIfNeeded()
        if let top = topViewController, let v = top.viewIfLoaded, v.superview === contentView, !isRunningTransition {
            v.frame = contentView.bounds
        }
    }

    /// True while a push or pop slides. A second push or pop then is refused (and
    /// logged): finishing one transition under another left the content empty, and
    /// UIKit itself only warns of "unbalanced calls" there (docs/LIFECYCLE.md).
    public private(set) var isTransitioning = false

    /// Pushes `controller`: it becomes a child and, if this controller's view is shown,
    /// slides in from the right; it gets `didMove(toParent:)` when the slide is over.
    /// Returns false, changing nothing, while another push or pop is sliding. Pushing a
    /// controller that is already in the stack is a programming error, as in UIKit.
    @discardableResult
    public func push(_ controller: ViewController, animated: Bool) -> Bool {
        precondition(
            !viewControllers.contains { $0 === controller },
            "\(id): pushing \(controller.id), which is already in the stack, is not supported "
                + "(UIKit: \"Pushing the same view controller instance more than once is not supported\"). "
                + "Pop back to it, or push a new instance.")
        guard !isTransitioning else {
            View.diagnostics("\(id): push of \(controller.id) refused: a transition is in progress")
            return false
        }
        let previous = topViewController
        addChild(controller)
        viewControllers.append(controller)
        guard isViewLoaded, let previous, previous.viewIfLoaded?.superview != nil else {
            if isViewLoaded { install(controller) }
            controller.didMove(toParent: self)
            updateBar()
            return true
        }
        let width = contentView.bounds.width
        controller.view.frame = contentView.bounds.offsetBy(dx: width, dy: 0)
        updateBar()
        isTransitioning = true
        do {
            try transition(from: previous, to: controller, duration: animated ? slideDuration : 0, order: .disappearingFirst, animations: { [contentView] in
                controller.view.frame = contentView.bounds
                previous.view.frame = contentView.bounds.offsetBy(dx: -width / 3, dy: 0)
            }, completion: { _ in
                self.isTransitioning = false
                controller.didMove(toParent: self)
            })
        } catch {
            isTransitioning = false
            View.diagnostics("\(id): push of \(controller.id) failed: \(error)")
        }
        return true
    }

    /// Pops the top controller (never the root); returns it. Returns nil, changing
    /// nothing, while another push or pop is sliding.
    @discardableResult
    public func popViewController(animated: Bool) -> ViewController? {
        guard !isTransitioning else {
            View.diagnostics("\(id): pop refused: a transition is in progress")
            return nil
        }
        guard viewControllers.count > 1, let top = viewControllers.popLast(), let below = topViewController else { return nil }
        top.willMove(toParent: nil)
        updateBar()
        guard top.viewIfLoaded?.superview != nil else {
            top.removeFromParent()
            if isViewLoaded { install(below) }
            return top
        }
        let width = contentView.bounds.width
        below.view.frame = contentView.bounds.offsetBy(dx: -width / 3, dy: 0)
        isTransitioning = true
        do {
            try transition(from: top, to: below, duration: animated ? slideDuration : 0, order: .disappearingFirst, animations: { [contentView] in
                below.view.frame = contentView.bounds
                top.view.frame = contentView.bounds.offsetBy(dx: width, dy: 0)
            }, completion: { _ in
                self.isTransitioning = false
                top.removeFromParent()
            })
        } catch {
            isTransitioning = false
            View.diagnostics("\(id): pop of \(top.id) failed: \(error)")
        }
        // The view under the slide goes behind the leaving one.
        contentView.sendSubviewToBack(below.view)
        return top
    }

    private func install(_ controller: ViewController) {
        controller.view.frame = contentView.bounds
        contentView.addSubview(controller.view)
    }

    private func updateBar() {
        guard isViewLoaded else { return }
        titleLabel.text = topViewController?.title ?? ""
        backButton.isHidden = viewControllers.count < 2
    }

    open override func handle(_ request: Request, from child: ViewController) -> Reply? {
        switch request.name {
        case StandardRequest.show:
            let name = String(decoding: request.payload, as: UTF8.self)
            guard !isTransitioning else {
                return Reply(status: .declined, payload: Array("a transition is in progress".utf8))
            }
            guard let controller = registry.make(name) else {
                return Reply(status: .failed, payload: Array("no controller registered as '\(name)'".utf8))
            }
            push(controller, animated: true)
            return Reply(status: .ok)
        case StandardRequest.back:
            return popViewController(animated: true) == nil ? Reply(status: .declined) : Reply(status: .ok)
        default:
            return nil
        }
    }
}
