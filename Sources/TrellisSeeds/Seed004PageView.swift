import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

/// Seed 004's third style (S4-3): a page view controller embedded in a container, its
/// pages made on demand by a data source, and a separate page control in step with it;
/// the first page is set at load.
public final class PagerContainer: ViewController {
    public let pager = PageViewController(id: "PageView")
    public let pageControl = PageControl()
    /// Held here: a page view controller holds its data source weakly, as UIKit's does.
    public let source = NumberedPages(count: 10)

    public override func viewDidLoad() {
        super.viewDidLoad()
        DemoLayout.line(Label("S4-3 a page view controller: pages made on demand"), in: view, top: 0)
        DemoLayout.line(Label("drag left or right; only the neighbours are kept"), in: view, top: 1)
        pager.dataSource = source
        pager.setViewController(source.page(0))
        addChild(pager)
        view.addSubview(pager.view)
        pager.view.translatesAutoresizingMaskIntoConstraints = false
        pageControl.translatesAutoresizingMaskIntoConstraints = false
        pageControl.numberOfPages = source.count
        view.addSubview(pageControl)
        LayoutConstraint.activate([
            pager.view.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            pager.view.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            pager.view.topAnchor.constraint(equalTo: view.topAnchor, constant: 2),
            pager.view.bottomAnchor.constraint(equalTo: pageControl.topAnchor),
            pageControl.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            pageControl.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            pageControl.bottomAnchor.constraint(equalTo: view.bottomAnchor),
            pageControl.heightAnchor.constraint(equalToConstant: 1),
        ])
        pager.didMove(toParent: self)
        // The page control is not part of the page view controller (as in the seed):
        // each follows the other.
        pager.didTurnPage = { [pageControl] _, page in
            if let page = page as? NumberedPage { pageControl.currentPage = page.index }
        }
        pageControl.addAction(for: .valueChanged) { [unowned self] control in
            guard let target = (control as? PageControl)?.currentPage,
                  let current = (self.pager.currentPage as? NumberedPage)?.index else { return }
            if target > current { self.pager.goToNextPage() } else if target < current { self.pager.goToPreviousPage() }
        }
    }
}

/// S4-3's data source: page controllers made when asked for, each showing its index.
public final class NumberedPages: PageViewControllerDataSource {
    public let count: Int

    public init(count: Int) { self.count = count }

    public func page(_ index: Int) -> ViewController { NumberedPage(index: index, of: count) }

    public func pageViewController(_ p: PageViewController, viewControllerBefore page: ViewController) -> ViewController? {
        guard let i = (page as? NumberedPage)?.index, i > 0 else { return nil }
        return self.page(i - 1)
    }

    public func pageViewController(_ p: PageViewController, viewControllerAfter page: ViewController) -> ViewController? {
        guard let i = (page as? NumberedPage)?.index, i + 1 < count else { return nil }
        return self.page(i + 1)
    }
}

/// One page of S4-3: its index and its colour.
public final class NumberedPage: ViewController {
    public let index: Int
    public let count: Int

    public init(index: Int, of count: Int) {
        self.index = index
        self.count = count
        super.init(id: ControllerID("page-\(index)"))
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = seed004Colors[index % seed004Colors.count]
        let label = Label("Page \(index) of \(count)")
        label.foregroundColor = .indexed(15)
        label.backgroundColor = view.backgroundColor
        label.alignment = .center
        label.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(label)
        LayoutConstraint.activate([
            label.centerYAnchor.constraint(equalTo: view.centerYAnchor),
            label.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            label.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            label.heightAnchor.constraint(equalToConstant: 1),
        ])
    }
}
