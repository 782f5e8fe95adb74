import Foundation
import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

// Seed 002: creation order with containers and views loaded from files.

enum Seed2 {
    /// Views made by a view file cannot be handed a journal, so they write here; every
    /// test sets a fresh one first (tests on the main actor do not interleave).
    @MainActor static var journal = Journal()

    /// What a view made by a file tells the journal, from the main actor the tests'
    /// trees are on.
    static func add(_ entry: String) { MainActor.assumeIsolated { journal.add(entry) } }

    static let files: URL = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-seed2-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try? """
            # The xib of the article's CustomButton: a button holding an ExtendLabel.
            class: CustomButton
            identifier: customButton
            frame: [2, 1, 20, 3]
            border: single
            subviews:
              - file: ExtendLabel
            """.write(to: dir.appendingPathComponent("CustomButton.view.yaml"), atomically: true, encoding: .utf8)
        try? """
            class: ExtendLabel
            identifier: extendLabel
            frame: [1, 1, 18, 1]
            subviews:
              - class: Label
                identifier: label
                text: "ボタンです"
                fill: true
            """.write(to: dir.appendingPathComponent("ExtendLabel.view.yaml"), atomically: true, encoding: .utf8)
        return dir
    }()

    static func loader() -> ViewFileLoader {
        let l = ViewFileLoader(directory: files)
        l.register(CustomButton.self)
        l.register(ExtendLabel.self)
        return l
    }
}

final class CustomButton: Button {
    required init(frame: Rect = .zero) {
        super.init(frame: frame)
        Seed2.add("CustomButton.init")
    }
    override func awakeFromFile() { Seed2.add("CustomButton.awakeFromFile") }
}

final class ExtendLabel: View {
    required init(frame: Rect = .zero) {
        super.init(frame: frame)
        Seed2.add("ExtendLabel.init")
    }
    override func awakeFromFile() { Seed2.add("ExtendLabel.awakeFromFile") }
}

final class Seed2Sub: RecordingController {
    var customButton: CustomButton!
    var label: Label { customButton.view(withIdentifier: "label") as! Label }
    override func loadView() {
        let root = View()
        customButton = try! Seed2.loader().load(named: "CustomButton") as? CustomButton
        root.addSubview(customButton)
        view = root
    }
    override func viewDidLoad() {
        super.viewDidLoad()
        // S2-4: the button inside the child asks the parent to swap, by delegation.
        customButton.addAction { [unowned self] _ in self.sendRequest("changeView") }
    }
}

final class Seed2Container: RecordingController {
    var sub: Seed2Sub!
    var other: RecordingController!
    var labelTextAfterDidMove: String?

    init(_ journal: Journal) {
        super.init("Container", journal)
        // Children are instantiated here; their views are not loaded.
        sub = Seed2Sub("Sub", journal)
        other = RecordingController("Other", journal)
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        journal.add("Container.addChild")
        addChild(sub)
        view.addSubview(sub.view)
        sub.view.pinEdges(to: view)
        journal.add("Container.addSubview")
        sub.didMove(toParent: self)
        // S2-3: the child's members are usable once didMove returned.
        labelTextAfterDidMove = sub.label.text
    }

    override func handle(_ request: Request, from child: ViewController) -> Reply? {
        guard request.name == "changeView" else { return nil }
        changeView()
        return Reply(status: .ok)
    }

    /// S2-4: willMove(toParent: nil), remove its view, removeFromParent, then the other.
    func changeView() {
        let (old, new): (ViewController, ViewController) = sub.parent === self ? (sub, other) : (other, sub)
        journal.add("Container.changeView")
        old.willMove(toParent: nil)
        old.view.removeFromSuperview()
        old.removeFromParent()
        addChild(new)
        new.view.frame = view.bounds
        view.addSubview(new.view)
        new.didMove(toParent: self)
    }
}

@MainActor
@Suite struct Seed002Tests {
    func make() -> (Window, Seed2Container, Journal) {
        let journal = Journal()
        Seed2.journal = journal
        let window = Window(size: Size(width: 40, height: 10))
        let container = Seed2Container(journal)
        window.rootViewController = container
        window.makeKeyAndVisible()
        return (window, container, journal)
    }

    @Test func s2_1_hierarchyOfControllersAndFileLoadedViews() throws {
        let (window, container, _) = make()
        let button = try #require(container.sub.customButton)
        let extend = try #require(button.subviews.first as? ExtendLabel)
        let label = try #require(extend.subviews.first as? Label)
        #expect(container.sub.parent === container)
        #expect(container.sub.view.superview === container.view)
        #expect(label.text == "ボタンです")
        // The label fills ExtendLabel (fill: true) and shows its wide characters.
        #expect(label.frame == Rect(x: 0, y: 0, width: 18, height: 1))
        let screen = window.compose()
        #expect(screen.text.contains("ボタンです"))
    }

    @Test func s2_2_creationOrderAsTheArticleObserved() {
        let (_, _, journal) = make()
        #expect(journal.entries.filter { !$0.hasSuffix("traitCollectionDidChange") } == [
            "Container.init", "Sub.init", "Other.init",
            "Container.viewDidLoad",
            "Container.viewWillAppear",
            "Container.addChild",
            "Sub.willMove(toParent: Container)",
            "CustomButton.init", "ExtendLabel.init", "ExtendLabel.awakeFromFile", "CustomButton.awakeFromFile",
            "Sub.viewDidLoad",
            "Container.addSubview",
            "Sub.didMove(toParent: Container)",
            "Sub.viewWillAppear",
            "Container.viewDidAppear",
            "Sub.viewDidAppear",
        ])
    }

    @Test func s2_2_orderIsVisibleInTheRoutingLog() {
        let journal = Journal()
        Seed2.journal = journal
        let window = Window(size: Size(width: 40, height: 10))
        let routes = RouteRecorder(window)
        window.rootViewController = Seed2Container(journal)
        window.makeKeyAndVisible()
        #expect(routes.records.filter { $0.kind != "callback" }.map { "\($0.kind) \($0.source)→\($0.target) \($0.detail ?? "")" } == [
            "appearance window→Container willAppear",
            "containment Container→Sub willMove → Container",
            "traits Container→Sub h:compact v:compact dark",
            "appearance Container→Sub willAppear",
            "appearance Container→Sub didAppear",
        ])
        // The callbacks themselves are in the log too, in the article's order.
        #expect(routes.records.filter { $0.kind == "callback" }.compactMap(\.detail) == [
            "Container.traitCollectionDidChange", "Container.viewDidLoad", "Container.viewWillAppear",
            "Sub.willMove(toParent: Container)", "Sub.traitCollectionDidChange", "Sub.viewDidLoad",
            "Sub.didMove(toParent: Container)", "Sub.viewWillAppear", "Container.viewIsAppearing", "Container.viewDidAppear",
            "Sub.viewIsAppearing", "Sub.viewDidAppear",
        ])
    }

    @Test func s2_3_childMembersAreUsableAfterDidMove() {
        let (_, container, _) = make()
        #expect(container.labelTextAfterDidMove == "ボタンです")
    }

    @Test func s2_4_theChildAsksItsParentToSwap() {
        let (window, container, journal) = make()
        journal.clear()
        // A tap on the CustomButton inside Sub: Sub's handler sends the request up.
        #expect(window.tap(at: Point(x: 5, y: 2)))
        #expect(journal.entries.filter { !$0.hasSuffix("traitCollectionDidChange") } == [
            "Container.changeView",
            "Sub.willMove(toParent: nil)",
            "Sub.viewWillDisappear", "Sub.viewDidDisappear",
            "Sub.didMove(toParent: nil)",
            "Other.willMove(toParent: Container)",
            "Other.viewDidLoad",
            "Other.viewWillAppear", "Other.viewDidAppear",
            "Other.didMove(toParent: Container)",
        ])
        #expect(container.children.map(\.id) == ["Other"])
    }

    @Test func s2_5_aContainerTouchesOnlyItsChildsRootView() {
        let (window, container, _) = make()
        // Another controller's tree is no place for Sub's view.
        let stranger = RecordingController("Stranger", Journal())
        let refused = diagnostics { stranger.view.addSubview(container.sub.view) }
        #expect(container.sub.view.superview === container.view)
        #expect(refused == ["Cannot add the view of Sub to the view tree of Stranger: its parent is Container. A child's root view goes only into its parent's view tree."])

        // Nor may the container constrain a view inside its child.
        let inside = container.sub.customButton!
        let c = inside.widthAnchor.constraint(equalTo: container.view.widthAnchor)
        let said = diagnostics { c.isActive = true }
        #expect(!c.isActive)
        #expect(said.first?.contains("inside the view tree of another controller") == true)

        // Hit-testing in the container stops at the child's root view.
        container.view.layoutIfNeeded()
        #expect(container.view.hitTest(Point(x: 5, y: 2)) === container.sub.view)
        _ = window
    }
}
