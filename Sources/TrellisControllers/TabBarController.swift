import TrellisCanvas
import TrellisViews
import TrellisWire

/// Asked and told about the person's choice of tab (UIKit's `UITabBarControllerDelegate`;
/// both methods optional). Documented: only for taps on the tab bar, never when code sets
/// `selectedIndex`.
public protocol TabBarControllerDelegate: AnyObject {
    /// Whether the tapped tab may be selected (default true).
    func tabBarController(_ tabBarController: TabBarController, shouldSelect viewController: ViewController) -> Bool
    /// After a tap selected `viewController` — even the one already selected, as in UIKit.
    func tabBarController(_ tabBarController: TabBarController, didSelect viewController: ViewController)
}

extension TabBarControllerDelegate {
    public func tabBarController(_ tabBarController: TabBarController, shouldSelect viewController: ViewController) -> Bool { true }
    public func tabBarController(_ tabBarController: TabBarController, didSelect viewController: ViewController) {}
}

/// The parallel kind of container (S3-1): a tab bar along the bottom with one button
/// per child (its `title`), and the selected child's view above it. All children stay
/// children; only the selected one's view is in the tree, so only it is visible — the
/// others disappear and appear as the selection changes.
open class TabBarController: ViewController {
    public let tabBar = View()
    public let contentView = View()
    private var buttons: [Button] = []
    /// Asked before a tapped tab is selected, told after (weak, as UIKit's delegates are).
    public weak var delegate: (any TabBarControllerDelegate)?

    /// Setting the children replaces the old ones (they leave with willMove/removeFromParent).
    public var viewControllers: [ViewController] = [] {
        didSet {
            for old in oldValue where !viewControllers.contains(where: { $0 === old }) {
                old.willMove(toParent: nil)
                old.viewIfLoaded?.removeFromSuperview()
                old.removeFromParent()
            }
            for c in viewControllers where c.parent !== self {
                addChild(c)
                c.didMove(toParent: self)
            }
            selectedIndexStorage = min(selectedIndexStorage, max(0, viewControllers.count - 1))
            if isViewLoaded { rebuildTabs(); showSelected(previous: nil) }
        }
    }

    private var selectedIndexStorage = 0
    public var selectedIndex: Int {
        get { selectedIndexStorage }
        set {
            guard viewControllers.indices.contains(newValue), newValue != selectedIndexStorage else { return }
            let previous = selectedViewController
            selectedIndexStorage = newValue
            if isViewLoaded { showSelected(previous: previous) }
        }
    }

    public var selectedViewController: ViewController? {
        viewControllers.indices.contains(selectedIndexStorage) ? viewControllers[selectedIndexStorage] : nil
    }

    open override func loadView() {
        let root = View()
        tabBar.identifier = "tabBar"
        tabBar.backgroundColor = .indexed(8)
        contentView.identifier = "tabContent"
        root.addSubview(contentView)
        root.addSubview(tabBar)
        tabBar.translatesAutoresizingMaskIntoConstraints = false
        contentView.translatesAutoresizingMaskIntoConstraints = false
        LayoutConstraint.activate([
            tabBar.leadingAnchor.constraint(equalTo: root.leadingAnchor),
            tabBar.trailingAnchor.constraint(equalTo: root.trailingAnchor),
            tabBar.bottomAnchor.constraint(equalTo: root.bottomAnchor),
            tabBar.heightAnchor.constraint(equalToConstant: 1),
            contentView.leadingAnchor.constraint(equalTo: root.leadingAnchor),
            contentView.trailingAnchor.constraint(equalTo: root.trailingAnchor),
            contentView.topAnchor.constraint(equalTo: root.topAnchor),
            contentView.bottomAnchor.constraint(equalTo: tabBar.topAnchor),
        ])
        view = root
    }

    open override func viewDidLoad() {
        super.viewDidLoad()
        rebuildTabs()
        showSelected(previous: nil)
    }

    open override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        contentView.layoutIfNeeded()
        selectedViewController?.viewIfLoaded?.frame = contentView.bounds
        layoutTabs()
    }

    private func rebuildTabs() {
        for b in buttons { b.removeFromSuperview() }
        buttons = viewControllers.enumerated().map { i, c in
            let b = Button(title: c.title ?? c.id.rawValue)
            b.identifier = "tab\(i)"
            b.addAction { [weak self] _ in self?.tabTapped(i) }
            tabBar.addSubview(b)
            return b
        }
        layoutTabs()
    }

    /// A tap on a tab: the delegate may refuse it; selected, the delegate is told.
    private func tabTapped(_ index: Int) {
        guard viewControllers.indices.contains(index) else { return }
        let tapped = viewControllers[index]
        guard delegate?.tabBarController(self, shouldSelect: tapped) ?? true else { return }
        selectedIndex = index
        delegate?.tabBarController(self, didSelect: tapped)
    }

    /// Equal-width tabs; the selected one drawn reversed.
    private func layoutTabs() {
        guard !buttons.isEmpty else { return }
        let w = tabBar.bounds.width / buttons.count
        for (i, b) in buttons.enumerated() {
            b.frame = Rect(x: i * w, y: 0, width: i == buttons.count - 1 ? tabBar.bounds.width - i * w : w, height: 1)
            b.attributesWhenSelected(i == selectedIndexStorage)
        }
    }

    /// Puts the selected child's view in place of `previous`'s. Shown, the switch tells the
    /// two in UIKit's order: the new tab's `viewWillAppear` before the old tab's
    /// `viewWillDisappear`, the old tab's `viewDidDisappear` before the new tab's
    /// `viewDidAppear`, which comes after the new tab's view has been laid out — and,
    /// in a host, sent to the screen (`Window.showLaidOutTree`).
    private func showSelected(previous: ViewController?) {
        let leaving = previous.flatMap { $0 !== selectedViewController && $0.viewIfLoaded?.superview != nil ? $0 : nil }
        let entering = selectedViewController.flatMap { $0.viewIfLoaded?.superview !== contentView ? $0 : nil }
        // Otherwise the views' moves bring the appearance, by the rules for any child.
        guard appearanceState == .appeared, let leaving, let entering else {
            leaving?.view.removeFromSuperview()
            if let entering { install(entering) }
            layoutTabs()
            return
        }
        leaving.appearance.drivenByContainer = true
        entering.appearance.drivenByContainer = true
        defer {
            leaving.appearance.drivenByContainer = false
            entering.appearance.drivenByContainer = false
        }
        sendSwapPhase(will: true, appearing: entering, disappearing: leaving, animated: false, order: .tabSwitch)
        leaving.view.removeFromSuperview()
        install(entering)
        layoutTabs()
        view.layoutIfNeeded()
        // On the screen before the dids, which wait for each child in another process.
        window?.showLaidOutTree()
        sendSwapPhase(will: false, appearing: entering, disappearing: leaving, animated: false, order: .tabSwitch)
    }

    private func install(_ child: ViewController) {
        child.view.frame = contentView.bounds
        contentView.addSubview(child.view)
    }
}

extension Button {
    fileprivate func attributesWhenSelected(_ selected: Bool) {
        foregroundColor = selected ? .indexed(15) : .default
        backgroundColor = selected ? .indexed(4) : nil
    }
}
