import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

/// Page colours shared by seed 004's three styles.
let seed004Colors: [CellColor] = [.indexed(1), .indexed(2), .indexed(3), .indexed(4), .indexed(5), .indexed(6)]

/// Seed 004's first two styles: pages in a paging scroll view, placed by constraints
/// only (S4-1), and the same with an upper bound (S4-2), with a page control in step.
///
/// A content view is pinned to the scroll view's edges (which, seen from inside, are
/// the edges of its content) with the scroll view's height; each page is as wide as
/// the scroll view — so the content size follows from the constraints. With an upper
/// bound, that width constraint is lowered to 999 and pages past the data get a
/// required width of 0: 3 data items show 3 of the 4 pages placed.
public final class ScrollPaging: ViewController {
    /// Which of the two scroll-view styles of the seed.
    public enum Style: Sendable {
        /// S4-1: four pages, all shown.
        case fixed
        /// S4-2: four pages placed, three data items.
        case bounded
    }

    public let style: Style
    public let scroll = ScrollView()
    public let pageControl = PageControl()
    public private(set) var pages: [Label] = []
    public let pagesPlaced = 4
    public var dataCount: Int { style == .fixed ? pagesPlaced : 3 }
    /// The page the user is on: changed only by the user (a drag, the dots), so that a
    /// size change — which moves the offset — cannot change it.
    public private(set) var page = 0
    private var laidOutWidth = 0

    public init(style: Style, id: ControllerID? = nil) {
        self.style = style
        super.init(id: id)
    }

    public override func viewDidLoad() {
        super.viewDidLoad()
        let header = style == .fixed
            ? "S4-1 four pages, placed by constraints only"
            : "S4-2 four pages placed, three data items: three shown"
        DemoLayout.line(Label(header), in: view, top: 0)
        DemoLayout.line(Label("drag left or right; tap beside the current dot"), in: view, top: 1)

        scroll.identifier = "pages"
        scroll.isPagingEnabled = true
        scroll.translatesAutoresizingMaskIntoConstraints = false
        pageControl.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(scroll)
        view.addSubview(pageControl)
        LayoutConstraint.activate([
            scroll.topAnchor.constraint(equalTo: view.topAnchor, constant: 2),
            scroll.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            scroll.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            scroll.bottomAnchor.constraint(equalTo: pageControl.topAnchor),
            pageControl.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            pageControl.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            pageControl.bottomAnchor.constraint(equalTo: view.bottomAnchor),
            pageControl.heightAnchor.constraint(equalToConstant: 1),
        ])

        let content = View()
        content.translatesAutoresizingMaskIntoConstraints = false
        scroll.addSubview(content)
        content.pinEdges(to: scroll)
        content.heightAnchor.constraint(equalTo: scroll.heightAnchor).isActive = true
        for i in 0..<pagesPlaced {
            let page = Label("page \(i)")
            page.alignment = .center
            page.backgroundColor = seed004Colors[i % seed004Colors.count]
            page.foregroundColor = .indexed(15)
            page.translatesAutoresizingMaskIntoConstraints = false
            content.addSubview(page)
            var c = [
                page.topAnchor.constraint(equalTo: content.topAnchor),
                page.bottomAnchor.constraint(equalTo: content.bottomAnchor),
                page.leadingAnchor.constraint(equalTo: pages.last?.trailingAnchor ?? content.leadingAnchor),
                page.widthAnchor.constraint(equalTo: scroll.widthAnchor).withPriority(style == .fixed ? .required : 999),
            ]
            if i >= dataCount { c.append(page.widthAnchor.constraint(equalToConstant: 0)) }
            LayoutConstraint.activate(c)
            pages.append(page)
        }
        pages.last?.trailingAnchor.constraint(equalTo: content.trailingAnchor).isActive = true

        scroll.didScroll = { [unowned self] s in self.pageControl.currentPage = s.currentPage }
        scroll.didEndDragging = { [unowned self] s in self.page = s.currentPage }
        pageControl.addAction(for: .valueChanged) { [unowned self] control in
            self.show(page: (control as? PageControl)?.currentPage ?? self.page)
        }
    }

    /// Scrolls to `page` and makes it the user's page.
    public func show(page: Int) {
        scroll.scroll(toPage: page)
        self.page = scroll.currentPage
    }

    /// S4-4, as the article does it: the offset is rescaled alongside the transition,
    /// `offset / oldWidth × newWidth`, when the new bounds are known.
    public override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        super.viewWillTransition(to: size, with: coordinator)
        let oldWidth = scroll.bounds.width
        let offset = scroll.contentOffset.x
        coordinator.animate(alongsideTransition: { [scroll] _ in
            guard oldWidth > 0 else { return }
            scroll.setContentOffset(Point(x: offset * scroll.bounds.width / oldWidth, y: 0))
        })
    }

    /// A width change that came with no transition — the terminal resized while this
    /// tab was not shown, so nothing told it — keeps the user's page too.
    public override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        pageControl.numberOfPages = scroll.numberOfPages
        if scroll.bounds.width != laidOutWidth {
            laidOutWidth = scroll.bounds.width
            scroll.scroll(toPage: page)
        }
        pageControl.currentPage = scroll.currentPage
    }
}
