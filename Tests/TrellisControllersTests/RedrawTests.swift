import Testing
import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

// A window redraws a controller's surface only when something in its domain asked for
// display since it was last drawn. These check that every kind of change still shows on
// the next composition, and that unchanged controllers are not drawn again.

/// A view that counts how often it is drawn.
final class CountingView: View {
    var draws = 0
    override func draw(in surface: inout Surface) {
        draws += 1
        super.draw(in: &surface)
    }
}

/// The screen's text without its trailing blank rows.
func shown(_ screen: Surface) -> String {
    var text = screen.text
    while text.last == "\n" { text.removeLast() }
    return text
}

@MainActor
@Suite struct RedrawTests {
    /// Root → child → grandchild, each a counting view with a label, nested 2 cells in.
    @MainActor
    final class Scene {
        let window = Window(size: Size(width: 30, height: 8))
        var controllers: [ViewController] = []
        var views: [CountingView] = []
        var labels: [Label] = []

        init() {
            for level in 0..<3 {
                let c = ViewController(id: ControllerID("L\(level)"))
                let v = CountingView()
                c.view = v
                let label = Label("level \(level)")
                label.frame = Rect(x: 0, y: 0, width: 12, height: 1)
                v.addSubview(label)
                if let parent = controllers.last {
                    parent.addChild(c)
                    parent.view.addSubview(c.view)
                    c.view.frame = Rect(x: 2, y: 1, width: parent.view.frame.width - 4, height: parent.view.frame.height - 2)
                    c.didMove(toParent: parent)
                } else {
                    window.rootViewController = c
                    window.makeKeyAndVisible()
                }
                controllers.append(c)
                views.append(v)
                labels.append(label)
            }
        }

        var draws: [Int] { views.map { $0.draws } }
    }

    @Test func anUnchangedWindowComposesTheSameScreenWithoutDrawingAgain() {
        let scene = Scene()
        var screen = Surface(size: scene.window.size)
        scene.window.compose(into: &screen)
        let first = shown(screen)
        #expect(first == "level 0\n  level 1\n    level 2")
        let draws = scene.draws
        _ = screen.takeFrame(number: 1)
        scene.window.compose(into: &screen)
        #expect(scene.draws == draws)
        #expect(screen.takeFrame(number: 2) == nil)
        #expect(shown(scene.window.compose()) == first)
    }

    @Test func aChangeInOneDomainRedrawsThatControllerOnly() {
        let scene = Scene()
        var screen = Surface(size: scene.window.size)
        scene.window.compose(into: &screen)
        let draws = scene.draws
        scene.labels[2].text = "changed"
        scene.window.compose(into: &screen)
        #expect(shown(screen) == "level 0\n  level 1\n    changed")
        #expect(scene.draws == [draws[0], draws[1], draws[2] + 1])
        scene.labels[0].text = "top"
        scene.window.compose(into: &screen)
        #expect(shown(screen) == "top\n  level 1\n    changed")
        #expect(scene.draws == [draws[0] + 1, draws[1], draws[2] + 1])
    }

    @Test func movingHidingAndRecolouringStillShow() {
        let scene = Scene()
        var screen = Surface(size: scene.window.size)
        scene.window.compose(into: &screen)
        // A viewport moved by its parent: the child's surface is unchanged, its place is not.
        scene.controllers[2].view.frame.origin = Point(x: 4, y: 2)
        scene.window.compose(into: &screen)
        #expect(shown(screen) == "level 0\n  level 1\n\n      level 2")
        scene.controllers[2].view.isHidden = true
        scene.window.compose(into: &screen)
        #expect(shown(screen) == "level 0\n  level 1")
        scene.controllers[2].view.isHidden = false
        scene.views[1].backgroundColor = .indexed(4)
        scene.window.compose(into: &screen)
        #expect(screen[20, 1].background == .indexed(4))
        #expect(shown(screen) == "level 0\n  level 1\n\n      level 2")
    }

    @Test func aViewDrawnElsewhereIsStillRedrawnIntoItsControllersSurface() {
        let scene = Scene()
        var screen = Surface(size: scene.window.size)
        scene.window.compose(into: &screen)
        scene.labels[1].text = "elsewhere"
        // Rendering the domain into some other surface must not count as drawing the
        // controller's own.
        var other = Surface(size: .zero)
        ViewRenderer.render(scene.controllers[1].view, into: &other)
        scene.window.compose(into: &screen)
        #expect(shown(screen) == "level 0\n  elsewhere\n    level 2")
    }

    /// Issue 20: a tab switch brought back every tab's surface drawn whole. A controller
    /// whose view left the tree and came back unchanged keeps its surface; one changed
    /// while away shows the change.
    @Test func aControllerBackInTheTreeIsDrawnAgainOnlyIfItChangedWhileAway() {
        let scene = Scene()
        var screen = Surface(size: scene.window.size)
        scene.window.compose(into: &screen)
        let leaf = scene.controllers[2], parentView = scene.controllers[1].view
        leaf.view.removeFromSuperview()
        scene.window.compose(into: &screen)
        #expect(shown(screen) == "level 0\n  level 1")
        let away = scene.draws
        parentView.addSubview(leaf.view)
        scene.window.compose(into: &screen)
        #expect(shown(screen) == "level 0\n  level 1\n    level 2")
        #expect(scene.draws[2] == away[2])
        leaf.view.removeFromSuperview()
        scene.window.compose(into: &screen)
        scene.labels[2].text = "changed away"
        parentView.addSubview(leaf.view)
        scene.window.compose(into: &screen)
        #expect(shown(screen) == "level 0\n  level 1\n    changed away")
        #expect(scene.draws[2] == away[2] + 1)
    }

    /// Issue 20: a tab switch drew the tab bar's whole surface again. A child's root view
    /// leaving and joining its parent's view changes where the layers go, and the screen
    /// shows it, but nothing the parent draws: neither its surface nor the window's own is
    /// drawn again — in a composition, and in a host's frame.
    @Test func aViewportLeavingAndJoiningRedrawsNothingOfItsParent() {
        let scene = Scene()
        var screen = Surface(size: scene.window.size)
        scene.window.compose(into: &screen)
        _ = scene.window.takeFrame(number: 1)
        let before = scene.draws
        let leaf = scene.controllers[2], parentView = scene.controllers[1].view
        leaf.view.removeFromSuperview()
        scene.window.compose(into: &screen)
        #expect(shown(screen) == "level 0\n  level 1")
        #expect(scene.window.takeFrame(number: 2) != nil)
        parentView.addSubview(leaf.view)
        scene.window.compose(into: &screen)
        #expect(shown(screen) == "level 0\n  level 1\n    level 2")
        #expect(scene.window.takeFrame(number: 3) != nil)
        #expect(scene.draws == before)
        #expect(shown(scene.window.compose()) == "level 0\n  level 1\n    level 2")
    }

    @Test func aReplacedRootViewIsDrawn() {
        let scene = Scene()
        var screen = Surface(size: scene.window.size)
        scene.window.compose(into: &screen)
        let leaf = scene.controllers[2]
        let frame = leaf.view.frame
        let parentView = scene.controllers[1].view
        leaf.view.removeFromSuperview()
        leaf.view = Label("new view")
        leaf.view.frame = frame
        parentView.addSubview(leaf.view)
        scene.window.compose(into: &screen)
        // A label centres its one line vertically in its four rows.
        #expect(shown(screen) == "level 0\n  level 1\n\n    new view")
    }
}
