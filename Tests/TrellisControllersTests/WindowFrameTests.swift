import SeededRandom
import Testing
import TrellisTestSupport
import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

// A host sends `Window.takeFrame`: only the rows its layers were written in are composed
// again while no layer moved. Whatever happens to the tree, the frames, applied in order
// to the compositor's copy, must show exactly what a full composition draws.

@MainActor
@Suite struct WindowFrameTests {
    /// Applies every frame to a receiver's copy, as the compositor does.
    @MainActor
    struct Receiver {
        var copy = Surface(size: .zero)
        mutating func take(_ window: Window, _ n: inout UInt32) throws {
            n &+= 1
            guard let frame = window.takeFrame(number: n) else { return }
            let size = Size(width: Int(frame.width), height: Int(frame.height))
            if copy.size != size { copy.resize(to: size) }
            try copy.apply(frame)
        }
    }

    @Test("a label change recomposes its row, and the receiver's copy matches a full composition")
    func aLabelChangeSendsOnlyItsRow() throws {
        let scene = RedrawTests.Scene()
        var receiver = Receiver(), n: UInt32 = 0
        try receiver.take(scene.window, &n)
        #expect(shown(receiver.copy) == shown(scene.window.compose()))
        scene.labels[2].text = "changed"
        let frame = try #require(scene.window.takeFrame(number: 2))
        #expect(frame.damage.map(\.rect.y) == [2])
        try receiver.copy.apply(frame)
        #expect(shown(receiver.copy) == "level 0\n  level 1\n    changed")
        #expect(scene.window.takeFrame(number: 3) == nil)
    }

    @Test("a child its parent's layout moves — setNeedsLayout alone, no frame set from outside — is framed where it went")
    func aChildMovedByLayoutIsFramedWhereItWent() throws {
        let window = Window(size: Size(width: 24, height: 6))
        let root = ViewController(id: "Root")
        let container = OffsetLayoutView()
        root.view = container
        let child = ViewController(id: "Child")
        let label = Label("child")
        label.frame = Rect(x: 0, y: 0, width: 5, height: 1)
        child.view.addSubview(label)
        root.addChild(child)
        container.addSubview(child.view)
        child.didMove(toParent: root)
        window.rootViewController = root
        window.makeKeyAndVisible()
        var receiver = Receiver(), n: UInt32 = 0
        try receiver.take(window, &n)
        // A change of content alone: the next frame may reuse the layers it arranged.
        label.text = "moved"
        try receiver.take(window, &n)
        container.offset = 6
        container.setNeedsLayout()
        try receiver.take(window, &n)
        #expect(shown(receiver.copy) == shown(window.compose()))
        #expect(shown(receiver.copy).hasSuffix("\n      moved"))
    }

    @Test("a label placed by constraints in a child: new text as wide as the old, then wider, then narrower — laid out each time, framed as a full composition draws it (issue 20)")
    func aConstrainedLabelsNewTextIsFramedExactly() throws {
        let window = Window(size: Size(width: 30, height: 7))
        let root = ViewController(id: "Root")
        let child = LayoutCountingController(id: "Child")
        root.addChild(child)
        root.view.addSubview(child.view)
        child.view.pinEdges(to: root.view, insets: 1)
        child.didMove(toParent: root)
        let label = Label("tap me")
        label.translatesAutoresizingMaskIntoConstraints = false
        child.view.addSubview(label)
        LayoutConstraint.activate([
            label.centerXAnchor.constraint(equalTo: child.view.centerXAnchor),
            label.centerYAnchor.constraint(equalTo: child.view.centerYAnchor),
        ])
        window.rootViewController = root
        window.makeKeyAndVisible()
        var receiver = Receiver(), n: UInt32 = 0
        try receiver.take(window, &n)
        for text in ["child ×1", "child ×2", "child ×10", "×3", "×4"] {
            let laidOut = child.layouts
            label.text = text
            try receiver.take(window, &n)
            // UIKit lays a label's domain out when its text changes, whatever its width.
            #expect(child.layouts == laidOut + 1, "\(text)")
            #expect(label.frame.width == text.count, "\(text)")
            #expect(shown(receiver.copy) == shown(window.compose()), "\(text)")
            #expect(shown(receiver.copy).contains(text))
        }
        #expect(child.view.frame == Rect(x: 1, y: 1, width: 28, height: 5))
    }

    @Test("3,000 random changes: every frame leaves the receiver as a full composition draws it, every surface as drawn afresh")
    func randomChangesKeepTheReceiverExact() throws {
        var rng = SplitMix64(seed: 0x7E11_15)
        let texts = ["", "a", "level", "wide 階層", "日本語テキスト", "x y z", "[taps 12]", "ｦ"]
        let colors: [CellColor?] = [nil, .indexed(1), .indexed(4), .indexed(200)]
        for _ in 0..<30 {
            let scene = RedrawTests.Scene()
            var receiver = Receiver(), n: UInt32 = 0
            try receiver.take(scene.window, &n)
            for step in 0..<100 {
                let level = Int(rng.next() % 3)
                switch rng.next() % 8 {
                case 0, 1, 2: scene.labels[level].text = texts[Int(rng.next() % UInt64(texts.count))]
                case 3: scene.labels[level].frame.origin = Point(x: Int(rng.next() % 6), y: Int(rng.next() % 4))
                case 4 where level > 0:
                    scene.controllers[level].view.frame.origin = Point(x: Int(rng.next() % 5), y: Int(rng.next() % 3))
                case 5 where level > 0: scene.controllers[level].view.isHidden.toggle()
                case 6: scene.views[level].backgroundColor = colors[Int(rng.next() % UInt64(colors.count))]
                case 7 where rng.next() % 4 == 0:
                    scene.window.resize(to: Size(width: 20 + Int(rng.next() % 20), height: 5 + Int(rng.next() % 6)))
                default: break
                }
                try receiver.take(scene.window, &n)
                let full = scene.window.compose()
                // Compared as a Bool: a failing Surface comparison would print every cell.
                let same = receiver.copy == full
                #expect(same, "after step \(step), the receiver shows\n\(shown(receiver.copy))\ninstead of\n\(shown(full))")
                if !same { return }
                // Surfaces are drawn again only where views asked: each shown controller's must
                // hold what drawing its views afresh gives (compose() above reads the same ones).
                for c in scene.controllers where shownInTree(c.view) {
                    var fresh = Surface(size: .zero)
                    ViewRenderer.render(c.view, into: &fresh)
                    let exact = fresh == c.surface
                    #expect(exact, "after step \(step), \(c.id)'s surface shows\n\(shown(c.surface))\ninstead of\n\(shown(fresh))")
                    if !exact { return }
                }
            }
        }
    }
}

/// Places its first subview `offset` cells in from the left, in `layoutSubviews`: a
/// container that moves a child by laying out.
final class OffsetLayoutView: View {
    var offset = 1
    override func layoutSubviews() {
        super.layoutSubviews()
        subviews.first?.frame = Rect(x: offset, y: 1, width: 10, height: 3)
    }
}

/// Counts its `viewDidLayoutSubviews`.
final class LayoutCountingController: ViewController {
    var layouts = 0
    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        layouts += 1
    }
}

/// True when neither `view` nor any view above it is hidden.
@MainActor
func shownInTree(_ view: View) -> Bool {
    var v: View? = view
    while let x = v {
        if x.isHidden { return false }
        v = x.superview
    }
    return true
}
