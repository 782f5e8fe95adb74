import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

// Seed 004: paging UIs, three ways, and rotation.

private let pageColors: [CellColor] = [.indexed(1), .indexed(2), .indexed(3), .indexed(4)]

/// S4-1 and S4-2: pages in a paging scroll view, placed by constraints only. With
/// `dataCount`, each page's width-equals-scroll-view constraint is lowered to 999 and the
/// pages past the data get a required width of 0.
final class ConstraintPagingController: RecordingController {
    let scroll = ScrollView()
    var pages: [View] = []
    let pageCount: Int
    let dataCount: Int?

    init(_ journal: Journal, pages: Int = 4, dataCount: Int? = nil) {
        pageCount = pages
        self.dataCount = dataCount
        super.init("Paging", journal)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        scroll.isPagingEnabled = true
        view.addSubview(scroll)
        scroll.pinEdges(to: view)
        let content = View()
        content.translatesAutoresizingMaskIntoConstraints = false
        scroll.addSubview(content)
        content.pinEdges(to: scroll)
        content.heightAnchor.constraint(equalTo: scroll.heightAnchor).isActive = true
        for i in 0..<pageCount {
            let page = Label("page \(i)")
            page.backgroundColor = pageColors[i % pageColors.count]
            page.translatesAutoresizingMaskIntoConstraints = false
            content.addSubview(page)
            var c = [
                page.topAnchor.constraint(equalTo: content.topAnchor),
                page.bottomAnchor.constraint(equalTo: content.bottomAnchor),
                page.leadingAnchor.constraint(equalTo: pages.last?.trailingAnchor ?? content.leadingAnchor),
                page.widthAnchor.constraint(equalTo: scroll.widthAnchor).withPriority(dataCount == nil ? .required : 999),
            ]
            if let n = dataCount, i >= n { c.append(page.widthAnchor.constraint(equalToConstant: 0)) }
            LayoutConstraint.activate(c)
            pages.append(page)
        }
        pages.last!.trailingAnchor.constraint(equalTo: content.trailingAnchor).isActive = true
    }

    /// S4-4: the current page stays current: the offset is rescaled alongside.
    override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
        super.viewWillTransition(to: size, with: coordinator)
        let oldWidth = scroll.bounds.width
        let offset = scroll.contentOffset.x
        coordinator.animate(alongsideTransition: { [scroll] _ in
            guard oldWidth > 0 else { return }
            scroll.setContentOffset(Point(x: offset * scroll.bounds.width / oldWidth, y: 0))
        })
    }
}

/// S4-3's data source: pages made on demand, each showing its index and colour.
final class NumberedPages: PageViewControllerDataSource {
    let count: Int
    private(set) var made: [Int] = []
    private(set) var alive: [Int: WeakController] = [:]
    init(count: Int) { self.count = count }

    func page(_ i: Int) -> ViewController {
        made.append(i)
        let c = NumberedPage(index: i)
        alive[i] = WeakController(c)
        return c
    }
    func pageViewController(_ p: PageViewController, viewControllerBefore page: ViewController) -> ViewController? {
        let i = (page as! NumberedPage).index
        return i > 0 ? self.page(i - 1) : nil
    }
    func pageViewController(_ p: PageViewController, viewControllerAfter page: ViewController) -> ViewController? {
        let i = (page as! NumberedPage).index
        return i + 1 < count ? self.page(i + 1) : nil
    }
    var aliveIndices: [Int] { alive.filter { $0.value.controller != nil }.keys.sorted() }
}

final class WeakController {
    weak var controller: ViewController?
    init(_ c: ViewController) { controller = c }
}

final class NumberedPage: ViewController {
    let index: Int
    init(index: Int) {
        self.index = index
        super.init(id: ControllerID("page-\(index)"))
    }
    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = pageColors[index % pageColors.count]
        let label = Label("Page \(index)")
        label.frame = Rect(x: 1, y: 1, width: 12, height: 1)
        view.addSubview(label)
    }
}

/// S4-3: a page view controller embedded in a container, with a separate page control.
final class PagesContainer: RecordingController {
    let pager = PageViewController(id: "Pager")
    let pageControl = PageControl()
    let source: NumberedPages

    init(_ journal: Journal, count: Int) {
        source = NumberedPages(count: count)
        super.init("Pages", journal)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        pager.dataSource = source
        pager.setViewController(source.page(0))  // the first page, set at load
        addChild(pager)
        view.addSubview(pager.view)
        pager.view.translatesAutoresizingMaskIntoConstraints = false
        pageControl.translatesAutoresizingMaskIntoConstraints = false
        pageControl.numberOfPages = source.count
        view.addSubview(pageControl)
        LayoutConstraint.activate([
            pager.view.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            pager.view.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            pager.view.topAnchor.constraint(equalTo: view.topAnchor),
            pager.view.bottomAnchor.constraint(equalTo: pageControl.topAnchor),
            pageControl.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            pageControl.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            pageControl.bottomAnchor.constraint(equalTo: view.bottomAnchor),
            pageControl.heightAnchor.constraint(equalToConstant: 1),
        ])
        pager.didMove(toParent: self)
        pager.didTurnPage = { [pageControl] _, page in pageControl.currentPage = (page as! NumberedPage).index }
        pageControl.addAction(for: .valueChanged) { [unowned self] control in
            let target = (control as! PageControl).currentPage
            let current = (pager.currentPage as! NumberedPage).index
            if target > current { pager.goToNextPage() } else if target < current { pager.goToPreviousPage() }
        }
    }
}

@MainActor
@Suite struct Seed004Tests {
    func drag(_ window: Window, from a: Point, to b: Point) {
        window.touch(.began, at: a)
        window.touch(.moved, at: Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2))
        window.touch(.moved, at: b)
        window.touch(.ended, at: b)
    }

    @Test func s4_1_constraintPagesScrollAndSnap() {
        let window = Window(size: Size(width: 40, height: 10))
        let paging = ConstraintPagingController(Journal())
        window.rootViewController = paging
        window.makeKeyAndVisible()
        window.rootView.layoutIfNeeded()
        #expect(paging.scroll.contentSize == Size(width: 160, height: 10))
        #expect(window.compose().cell(at: Point(x: 20, y: 5))?.background == .indexed(1))
        // A drag of 15 columns to the left: more than a third of a page, one page on.
        drag(window, from: Point(x: 30, y: 5), to: Point(x: 15, y: 5))
        #expect(paging.scroll.contentOffset.x == 40)
        #expect(paging.scroll.currentPage == 1)
        #expect(window.compose().cell(at: Point(x: 20, y: 5))?.background == .indexed(2))
        // A small drag snaps back.
        drag(window, from: Point(x: 30, y: 5), to: Point(x: 27, y: 5))
        #expect(paging.scroll.contentOffset.x == 40)
    }

    @Test func s4_2_threeDataItemsShowThreeOfFourPages() {
        let window = Window(size: Size(width: 40, height: 10))
        let paging = ConstraintPagingController(Journal(), pages: 4, dataCount: 3)
        window.rootViewController = paging
        window.makeKeyAndVisible()
        window.rootView.layoutIfNeeded()
        #expect(paging.pages.map(\.frame.width) == [40, 40, 40, 0])
        #expect(paging.scroll.numberOfPages == 3)
        for _ in 0..<5 { drag(window, from: Point(x: 35, y: 5), to: Point(x: 5, y: 5)) }
        #expect(paging.scroll.currentPage == 2)  // never past the data
        #expect(window.compose().cell(at: Point(x: 20, y: 5))?.background == .indexed(3))
    }

    @Test func s4_3_pageViewControllerMakesPagesOnDemandAndKeepsOnlyNeighbours() {
        let window = Window(size: Size(width: 40, height: 10))
        let clock = ManualClock()
        clock.install(on: window)
        let container = PagesContainer(Journal(), count: 100)
        window.rootViewController = container
        window.makeKeyAndVisible()
        #expect(window.screenText.contains("Page 0"))
        #expect(container.source.made == [0, 1])          // page 0, then its only neighbour
        #expect(container.pageControl.currentPage == 0)

        for expected in 1...5 {
            drag(window, from: Point(x: 30, y: 4), to: Point(x: 10, y: 4))  // swipe left
            clock.seconds += 0.3
            window.tick()
            #expect(container.pageControl.currentPage == expected)
        }
        #expect(window.screenText.contains("Page 5"))
        #expect(container.source.aliveIndices == [4, 5, 6])  // only the neighbours live
        #expect(container.pager.children.map(\.id) == ["page-5"])

        // The separate page control turns pages too: a tap left of the current dot.
        let dots = window.compose().text.split(separator: "\n", omittingEmptySubsequences: false)[9]
        let current = dots.distance(from: dots.startIndex, to: dots.firstIndex(of: "●")!)
        #expect(window.tap(at: Point(x: current - 2, y: 9)))
        clock.seconds += 0.3
        window.tick()
        #expect((container.pager.currentPage as? NumberedPage)?.index == 4)
        #expect(container.pageControl.currentPage == 4)
    }

    @Test func s4_4_resizeKeepsTheCurrentPage() {
        let window = Window(size: Size(width: 40, height: 10))
        let paging = ConstraintPagingController(Journal())
        window.rootViewController = paging
        window.makeKeyAndVisible()
        paging.scroll.scroll(toPage: 2)
        #expect(paging.scroll.contentOffset.x == 80)
        window.resize(to: Size(width: 60, height: 12))
        #expect(paging.scroll.bounds.width == 60)
        #expect(paging.scroll.contentOffset.x == 120)   // 80 / 40 × 60
        #expect(paging.scroll.currentPage == 2)
        #expect(window.compose().cell(at: Point(x: 30, y: 5))?.background == .indexed(3))

        // The page view controller keeps its current page too.
        let clock = ManualClock()
        let w2 = Window(size: Size(width: 40, height: 10))
        clock.install(on: w2)
        let pages = PagesContainer(Journal(), count: 10)
        w2.rootViewController = pages
        w2.makeKeyAndVisible()
        pages.pager.goToNextPage(animated: false)
        w2.resize(to: Size(width: 100, height: 30))
        #expect((pages.pager.currentPage as? NumberedPage)?.index == 1)
        #expect(pages.pager.currentPage?.view.frame == Rect(x: 0, y: 0, width: 100, height: 29))
    }
}
