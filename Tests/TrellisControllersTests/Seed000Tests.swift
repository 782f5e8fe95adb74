import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

// Seed 000: controllers do controller work, views do layout.

/// The container's root view lays the child's view out itself (S0-1): a square of
/// side min(width, height) / 2, centred, drawn as a circle. A cell is about twice as
/// tall as it is wide, so a square on screen is `side` rows by `2 × side` columns, and
/// `min` compares the width in those terms.
final class CircleLayoutView: View {
    weak var circle: View?
    override func layoutSubviews() {
        super.layoutSubviews()
        guard let circle else { return }
        let side = min(bounds.width / 2, bounds.height) / 2
        circle.frame = Rect(x: (bounds.width - 2 * side) / 2, y: (bounds.height - side) / 2, width: 2 * side, height: side)
        circle.cornerRadius = side
    }
}

/// The child's own view class, installed in `loadView` (S0-2).
final class CircleView: View {}

final class Seed0Child: RecordingController {
    override func loadView() {
        let v = CircleView()
        v.backgroundColor = .indexed(1)
        view = v
    }
    override func touchesEnded(_ touches: Set<Touch>) {
        journal.add("Touches ended on child view controller")
    }
}

final class Seed0Container: RecordingController {
    let child: Seed0Child
    init(_ journal: Journal) {
        child = Seed0Child("Sub", journal)
        super.init("Container", journal)
    }
    override func loadView() { view = CircleLayoutView() }
    override func viewDidLoad() {
        super.viewDidLoad()
        journal.add("Container.addChild")
        addChild(child)
        view.addSubview(child.view)
        journal.add("Container.addSubview")
        (view as! CircleLayoutView).circle = child.view
        child.didMove(toParent: self)
    }
    override func touchesEnded(_ touches: Set<Touch>) {
        journal.add("Touches ended on container")
    }
}

@MainActor
@Suite struct Seed000Tests {
    func make(_ size: Size = Size(width: 80, height: 24)) -> (Window, Seed0Container, Journal) {
        let journal = Journal()
        let window = Window(size: size)
        let container = Seed0Container(journal)
        window.rootViewController = container
        window.makeKeyAndVisible()
        return (window, container, journal)
    }

    @Test func s0_1_layoutSubviewsCentresACircleAndKeepsItOnResize() {
        let (window, container, _) = make()
        #expect(container.child.view.frame == Rect(x: 28, y: 6, width: 24, height: 12))
        #expect(container.child.view.cornerRadius == 12)
        var screen = window.compose()
        #expect(screen.cell(at: Point(x: 40, y: 12))?.background == .indexed(1))
        #expect(screen.cell(at: Point(x: 28, y: 6))?.background == .default)  // the corner is outside the circle

        window.resize(to: Size(width: 120, height: 40))
        #expect(container.child.view.frame == Rect(x: 40, y: 10, width: 40, height: 20))
        screen = window.compose()
        #expect(screen.cell(at: Point(x: 60, y: 20))?.background == .indexed(1))
        #expect(screen.cell(at: Point(x: 40, y: 10))?.background == .default)
        // Symmetric about the centre: proportion kept.
        for dy in 0..<10 {
            for dx in 0..<20 {
                let a = screen.cell(at: Point(x: 40 + dx, y: 10 + dy))?.background
                let b = screen.cell(at: Point(x: 79 - dx, y: 29 - dy))?.background
                #expect(a == b)
            }
        }
    }

    @Test func s0_2_loadViewInstallsTheChildsOwnViewClass() {
        let (_, container, _) = make()
        #expect(container.child.view is CircleView)
        #expect(container.child.view.owner === container.child)
    }

    @Test func s0_3_aTouchOnTheCircleIsHandledByTheChildNotOnTheBackground() {
        let (window, _, journal) = make()
        let routes = RouteRecorder(window)
        journal.clear()
        #expect(window.tap(at: Point(x: 40, y: 12)))
        #expect(journal.entries == ["Touches ended on child view controller"])
        // The touch reached the child as a message, in the child's coordinates.
        #expect(routes.lines.contains("touch Container→Sub"))

        journal.clear()
        routes.clearing()
        #expect(window.tap(at: Point(x: 1, y: 1)))
        #expect(journal.entries == ["Touches ended on container"])
        #expect(!routes.lines.contains("touch Container→Sub"))
    }

    @Test func s0_4_addChildThenViewThenDidMove() {
        let (_, _, journal) = make()
        #expect(journal.only("Container.add", "Sub.willMove", "Sub.viewDidLoad", "Sub.didMove") == [
            "Container.addChild",
            "Sub.willMove(toParent: Container)",
            "Sub.viewDidLoad",
            "Container.addSubview",
            "Sub.didMove(toParent: Container)",
        ])
    }
}
