import TrellisCanvas
import TrellisViews
import TrellisWire

/// The parallel kind of container (S3-1): a tab bar along the bottom with one button
/// per child (its `title`), and the selected child's view above it. All children stay
/// children; only the selected one's view is in the tree, so only it is visible — the
/// others disappear and appear as the selection changes.
@MainActor
open class TabBarController: ViewController {
    public let tabBar = View()
    public let contentView = View()
    private var buttons: [Button] = []

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
            b.addAction { [weak self] _ in self?.selectedIndex = i }
            tabBar.addSubview(b)
            return b
        }
        layoutTabs()
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

    private func showSelected(previous: ViewController?) {
        if let previous, previous !== selectedViewController { previous.viewIfLoaded?.removeFromSuperview() }
        if let selected = selectedViewController, selected.viewIfLoaded?.superview !== contentView {
            selected.view.frame = contentView.bounds
            contentView.addSubview(selected.view)
        }
        layoutTabs()
    }
}

extension Button {
    fileprivate func attributesWhenSelected(_ selected: Bool) {
        foregroundColor = selected ? .indexed(15) : .default
        backgroundColor = selected ? .indexed(4) : nil
    }
}
