import TrellisCanvas
import TrellisViews
import TrellisWire

/// Told when a navigation controller shows a new top controller (UIKit's
/// `UINavigationControllerDelegate`; both methods optional).
public protocol NavigationControllerDelegate: AnyObject {
    /// Before `viewController` becomes the shown top: before its `viewWillAppear`.
    func navigationController(_ navigationController: NavigationController, willShow viewController: ViewController, animated: Bool)
    /// After it is shown: after its `viewDidAppear`, once a slide is over.
    func navigationController(_ navigationController: NavigationController, didShow viewController: ViewController, animated: Bool)
}

extension NavigationControllerDelegate {
    public func navigationController(_ navigationController: NavigationController, willShow viewController: ViewController, animated: Bool) {}
    public func navigationController(_ navigationController: NavigationController, didShow viewController: ViewController, animated: Bool) {}
}

/// The stack kind of container (S3-1): a bar with the top controller's title and a back
/// button, and the top controller's view below it. Push slides the new view in from the
/// right over the old one; pop slides it back out. Answers `show` requests by pushing
/// the named controller and `back` requests by popping (S1-3).
open class NavigationController: ViewController {
    public private(set) var viewControllers: [ViewController] = []
    public var topViewController: ViewController? { viewControllers.last }
    /// How long a push or pop slides, in seconds.
    public var slideDuration = 0.25
    /// Where `show` requests' controllers are made: the registry given, else the window's
    /// (its host's, `Window.registry`), else an empty one.
    public var registry: ControllerRegistry { givenRegistry ?? loggingWindow?.registry ?? ControllerRegistry() }
    private let givenRegistry: ControllerRegistry?
    /// Told of each new top controller shown (weak, as UIKit's delegates are).
    public weak var delegate: (any NavigationControllerDelegate)?

    public let bar = View()
    public let titleLabel = Label()
    public let backButton = Button(title: "‹ Back")
    public let contentView = View()

    public init(rootViewController: ViewController, registry: ControllerRegistry? = nil, id: ControllerID? = nil) {
        givenRegistry = registry
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

    // The root (or whatever is on top) is shown when this controller appears: UIKit tells
    // the delegate then too.
    open override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        if let top = topViewController { delegate?.navigationController(self, willShow: top, animated: animated) }
    }

    override func appearanceTransitionDidEnd(appeared: Bool) {
        guard appeared, let top = topViewController else { return }
        delegate?.navigationController(self, didShow: top, animated: appearance.animated)
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
        return changeStack(to: viewControllers + [controller], animated: animated, what: "push of \(controller.id)")
    }

    /// Pops the top controller (never the root); returns it. Returns nil, changing
    /// nothing, while another push or pop is sliding.
    @discardableResult
    public func popViewController(animated: Bool) -> ViewController? {
        guard let top = topViewController, viewControllers.count > 1 else { return nil }
        return changeStack(to: Array(viewControllers.dropLast()), animated: animated, what: "pop") ? top : nil
    }

    /// Pops every controller above the root; returns them, bottom first. The top one
    /// slides out; the ones between leave without appearing. Nil while a push or pop slides.
    @discardableResult
    public func popToRootViewController(animated: Bool) -> [ViewController]? {
        guard let root = viewControllers.first else { return [] }
        return popToViewController(root, animated: animated)
    }

    /// Pops the controllers above `controller`, which must be in the stack (as UIKit
    /// requires); returns them, bottom first. Nil while a push or pop slides.
    @discardableResult
    public func popToViewController(_ controller: ViewController, animated: Bool) -> [ViewController]? {
        guard let i = viewControllers.firstIndex(where: { $0 === controller }) else {
            preconditionFailure(
                "\(id): popToViewController(\(controller.id)): it is not in the stack "
                    + "(UIKit: \"Tried to pop to a view controller that doesn't exist\"). Push it, or pop to one in viewControllers.")
        }
        let popped = Array(viewControllers[(i + 1)...])
        return changeStack(to: Array(viewControllers[...i]), animated: animated, what: "pop to \(controller.id)") ? popped : nil
    }

    /// Replaces the stack (UIKit's `setViewControllers(_:animated:)`): controllers no longer
    /// in it leave, new ones become children. When the top changes while shown, the new
    /// top slides in as a push does — or, if it was in the stack below, as a pop does.
    /// Returns false, changing nothing, while a push or pop slides. The stack must not be
    /// empty and holds each controller once.
    @discardableResult
    public func setViewControllers(_ controllers: [ViewController], animated: Bool) -> Bool {
        changeStack(to: controllers, animated: animated, what: "setViewControllers")
    }

    /// Every change of the stack: controllers that leave it hear `willMove(toParent: nil)`
    /// now and leave the children when the change is over; new ones become children now
    /// and hear `didMove(toParent:)` when it is over. Only the top's view is ever in the
    /// tree, so only the old and the new top appear or disappear.
    private func changeStack(to new: [ViewController], animated: Bool, what: String) -> Bool {
        guard !isTransitioning else {
            View.diagnostics("\(id): \(what) refused: a transition is in progress")
            return false
        }
        precondition(!new.isEmpty, "\(id): \(what): the stack cannot be empty; a navigation controller always has a root.")
        for (i, c) in new.enumerated() {
            precondition(
                !new[..<i].contains { $0 === c },
                "\(id): \(what): \(c.id) is in the stack twice (UIKit: \"Pushing the same view controller instance more than once is not supported\").")
        }
        let old = viewControllers
        let oldTop = topViewController
        let leaving = old.filter { c in !new.contains { $0 === c } }
        let arriving = new.filter { c in !old.contains { $0 === c } }
        for c in leaving { c.willMove(toParent: nil) }
        for c in arriving { addChild(c) }
        viewControllers = new
        updateBar()
        let top = new[new.count - 1]
        let settle = {
            for c in leaving { c.removeFromParent() }
            for c in arriving { c.didMove(toParent: self) }
        }
        guard isViewLoaded, let oldTop, oldTop !== top, oldTop.viewIfLoaded?.superview != nil else {
            if isViewLoaded, top.viewIfLoaded?.superview !== contentView { install(top) }
            settle()
            return true
        }
        // Shown, the new top's appearance brackets the delegate's will and did; hidden, it
        // is shown when this controller appears, and the delegate hears of it then.
        let shown = appearanceState == .appeared || appearanceState == .appearing
        if shown { delegate?.navigationController(self, willShow: top, animated: animated) }
        // A pop uncovers a controller that was below: it waits a third of the way to the
        // left and the old top slides out to the right. Anything else comes in from the right.
        let isPop = old.contains { $0 === top }
        let width = contentView.bounds.width
        top.view.frame = contentView.bounds.offsetBy(dx: isPop ? -width / 3 : width, dy: 0)
        isTransitioning = true
        do {
            try transition(from: oldTop, to: top, duration: animated ? slideDuration : 0, order: .disappearingFirst, animations: { [contentView] in
                top.view.frame = contentView.bounds
                oldTop.view.frame = contentView.bounds.offsetBy(dx: isPop ? width : -width / 3, dy: 0)
            }, completion: { _ in
                self.isTransitioning = false
                settle()
                if shown, self.topViewController === top { self.delegate?.navigationController(self, didShow: top, animated: animated) }
            })
        } catch {
            isTransitioning = false
            View.diagnostics("\(id): \(what) failed: \(error)")
        }
        // The view under the slide goes behind the leaving one.
        if isPop { contentView.sendSubviewToBack(top.view) }
        return true
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
