import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Keys", press phases (issue 22): where the terminal reports them
/// (the kitty keyboard protocol) a key is pressed, repeats while held, and is let go.
/// A repeat is delivered as another `pressesBegan` marked `isRepeat`, a release as
/// `pressesEnded`, along the same responder chain; commands fire on press and repeat.
@MainActor
@Suite struct KeyPhaseTests {
    /// A focusable view that writes every press it sees, by phase, and handles none.
    final class Pad: View {
        var journal: Journal?
        override var canBecomeFocused: Bool { true }
        override func pressesBegan(_ presses: Set<Press>) {
            let press = presses.first!
            journal?.add("\(identifier ?? "?").began \(press.key)\(press.isRepeat ? " repeat" : "")")
            super.pressesBegan(presses)
        }
        override func pressesEnded(_ presses: Set<Press>) {
            journal?.add("\(identifier ?? "?").ended \(presses.first!.key)")
            super.pressesEnded(presses)
        }
    }

    final class Keyed: ViewController {
        let journal: Journal
        var commands: [KeyCommand] = []
        init(_ journal: Journal) {
            self.journal = journal
            super.init(id: "Root")
        }
        override var keyCommands: [KeyCommand] { commands }
        override func pressesEnded(_ presses: Set<Press>) {
            journal.add("Root.ended \(presses.first!.key)")
            super.pressesEnded(presses)
        }
    }

    func window(_ journal: Journal) -> (Window, Keyed, Pad) {
        let root = Keyed(journal)
        let window = Window(size: Size(width: 40, height: 10))
        window.rootViewController = root
        window.makeKeyAndVisible()
        let outer = Pad(frame: Rect(x: 0, y: 0, width: 20, height: 2))
        outer.identifier = "outer"
        outer.journal = journal
        let pad = Pad(frame: Rect(x: 0, y: 0, width: 10, height: 1))
        pad.identifier = "pad"
        pad.journal = journal
        outer.addSubview(pad)
        root.view.addSubview(outer)
        #expect(pad.becomeFirstResponder())
        return (window, root, pad)
    }

    @Test func aReleaseTravelsUpTheChainAsPressesEnded() {
        let journal = Journal()
        let (window, _, _) = window(journal)
        let outcome = window.key(KeyPress(special: .up, phase: .ended))
        #expect(journal.entries == ["pad.ended ↑", "outer.ended ↑", "Root.ended ↑"])
        guard case .unhandled(let why) = outcome else { Issue.record("a release nobody took was handled"); return }
        #expect(why == "unhandled: no responder took ↑ (release) (from the focused pad of Root up to the window)")
    }

    @Test func aRepeatIsAnotherBeganMarkedAsARepeat() {
        let journal = Journal()
        let (window, _, _) = window(journal)
        window.key(KeyPress(text: "x"))
        window.key(KeyPress(text: "x", phase: .repeated))
        #expect(journal.only("pad.") == ["pad.began x", "pad.began x repeat"])
    }

    @Test func aCommandFiresOnPressAndRepeatNeverOnRelease() {
        let journal = Journal()
        let (window, root, _) = window(journal)
        root.commands = [KeyCommand(Key(.down), title: "Next") { journal.add("next") }]
        journal.clear()
        #expect(window.key(KeyPress(special: .down)) == .handled)
        #expect(window.key(KeyPress(special: .down, phase: .repeated)) == .handled)
        #expect(window.key(KeyPress(special: .down, phase: .ended)) != .handled)
        #expect(journal.only("next") == ["next", "next"])
        #expect(journal.entries.last == "Root.ended ↓", "the release went up the chain past the command")
    }

    /// A text field inserts exactly once per press and once per repeat; a release types
    /// nothing and is not the field's.
    @Test func aTextFieldInsertsOncePerPressAndRepeatAndNeverOnRelease() {
        let journal = Journal()
        let (window, root, _) = window(journal)
        let field = TextField(frame: Rect(x: 0, y: 3, width: 20, height: 1))
        root.view.addSubview(field)
        #expect(field.becomeFirstResponder())
        window.key(KeyPress(text: "a"))
        window.key(KeyPress(text: "a", phase: .repeated))
        window.key(KeyPress(text: "a", phase: .repeated))
        #expect(window.key(KeyPress(text: "a", phase: .ended)) != .handled)
        window.key(KeyPress(text: "b"))
        window.key(KeyPress(text: "b", phase: .ended))
        window.key(KeyPress(special: .backspace))
        window.key(KeyPress(special: .backspace, phase: .ended))
        #expect(field.text == "aaa")
    }

    /// A legacy terminal's keys are presses alone, as every key was before phases.
    @Test func aKeyWithoutAPhaseIsAPress() {
        let press = Press(KeyPress(text: "q"))
        #expect(press.phase == .began && !press.isRepeat)
        #expect(Press(KeyPress(text: "q", phase: .repeated)).isRepeat)
        #expect(Press(KeyPress(text: "q", phase: .ended)).phase == .ended)
    }
}
