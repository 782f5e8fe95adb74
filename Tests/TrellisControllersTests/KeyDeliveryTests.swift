import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisLog
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Keys" (issue 22): a key goes to the focused view, then up its
/// superviews and controllers to the window; each responder's key commands first.
@MainActor
@Suite struct KeyDeliveryTests {
    /// A focusable view that writes every press it sees and handles those in `takes`.
    final class Pad: View {
        var journal: Journal?
        var takes: Set<String> = []
        override var canBecomeFocused: Bool { true }
        override func pressesBegan(_ presses: Set<Press>) {
            let key = presses.first!.key
            journal?.add("\(identifier ?? "?").pressesBegan \(key)")
            if takes.contains(key.description) { return }
            super.pressesBegan(presses)
        }
    }

    /// A controller that writes the presses it sees and declares the commands it is given.
    final class Keyed: ViewController {
        let journal: Journal
        var commands: [KeyCommand] = []
        init(_ name: String, _ journal: Journal) {
            self.journal = journal
            super.init(id: ControllerID(name))
        }
        override var keyCommands: [KeyCommand] { commands }
        override func pressesBegan(_ presses: Set<Press>) {
            journal.add("\(id).pressesBegan \(presses.first!.key)")
            super.pressesBegan(presses)
        }
    }

    /// Parent ▸ (panel ▸ Child ▸ (box ▸ pad)); the pad is focused.
    func tree(_ journal: Journal) -> (Window, Keyed, Keyed, Pad) {
        let parent = Keyed("Parent", journal)
        let child = Keyed("Child", journal)
        let window = Window(size: Size(width: 60, height: 20))
        window.rootViewController = parent
        window.makeKeyAndVisible()
        let panel = Pad(frame: Rect(x: 0, y: 1, width: 40, height: 10))
        panel.identifier = "panel"
        panel.journal = journal
        parent.view.addSubview(panel)
        parent.addChild(child)
        child.view.frame = panel.bounds
        panel.addSubview(child.view)
        child.didMove(toParent: parent)
        let box = Pad(frame: Rect(x: 1, y: 1, width: 20, height: 3))
        box.identifier = "box"
        box.journal = journal
        let pad = Pad(frame: Rect(x: 1, y: 1, width: 10, height: 1))
        pad.identifier = "pad"
        pad.journal = journal
        box.addSubview(pad)
        child.view.addSubview(box)
        #expect(pad.becomeFirstResponder())
        return (window, parent, child, pad)
    }

    @Test func aKeyTravelsFromTheFocusedViewUpThroughItsControllerIntoTheParentsTree() {
        let journal = Journal()
        let (window, _, _, _) = tree(journal)
        let outcome = window.key(KeyPress(text: "x"))
        #expect(journal.entries == [
            "pad.pressesBegan x", "box.pressesBegan x", "Child.pressesBegan x",
            "panel.pressesBegan x", "Parent.pressesBegan x",
        ])
        guard case .unhandled(let reason) = outcome else { Issue.record("expected unhandled"); return }
        #expect(reason == "unhandled: no responder took x (from the focused pad of Child up to the window)")
    }

    @Test func aResponderThatHandlesTheKeyStopsIt() {
        let journal = Journal()
        let (window, _, _, pad) = tree(journal)
        (pad.superview as! Pad).takes = ["x"]
        #expect(window.key(KeyPress(text: "x")) == .handled)
        #expect(journal.entries == ["pad.pressesBegan x", "box.pressesBegan x"])
    }

    @Test func theChildsTreeDeclinesAsAMessageAndTheParentContinues() {
        let journal = Journal()
        let (window, _, _, _) = tree(journal)
        let routes = RouteRecorder(window)
        window.key(KeyPress(special: .f5))
        let keys = routes.records.filter { $0.kind == "key" || $0.kind == "reply" }.map { "\($0.kind) \($0.source)→\($0.target) \($0.outcome)" }
        #expect(keys == [
            "key window→Parent delivered", "key Parent→Child delivered", "reply Child→Parent delivered", "key Parent→window dropped",
        ])
    }

    @Test func aKeyFromTheParentIsDeliveredNotRejectedAndNothingHandlingItIsDeclinedWithAReason() {
        // What a host does with a `key` from the compositor or a parent in another process.
        let journal = Journal()
        let (window, parent, child, _) = tree(journal)
        defer { withExtendedLifetime(window) {} }
        let handled = Keyed("Other", journal)
        handled.commands = [KeyCommand(Key(text: "n"), title: "Next") {}]
        #expect(handled.handleMessage(.key(KeyPress(text: "n")), from: parent) == nil)
        let reply = child.handleMessage(.key(KeyPress(text: "z")), from: parent)
        #expect(reply?.status == .declined)
        let reason = String(decoding: reply?.payload ?? [], as: UTF8.self)
        #expect(reason == "unhandled: no responder took z (from the focused pad of Child up to Child)")
    }

    @Test func withNothingFocusedTheKeyGoesToTheRootController() {
        let journal = Journal()
        let (window, _, _, pad) = tree(journal)
        pad.resignFirstResponder()
        window.key(KeyPress(text: "x"))
        #expect(journal.entries == ["Parent.pressesBegan x"])
    }

    // MARK: Key commands

    @Test func theDeepestRespondersCommandWins() {
        let journal = Journal()
        let (window, parent, child, _) = tree(journal)
        parent.commands = [KeyCommand(Key(text: "s", modifiers: .control), title: "Save all") { journal.add("Parent saves") }]
        child.commands = [KeyCommand(Key(text: "s", modifiers: .control), title: "Save") { journal.add("Child saves") }]
        journal.clear()
        #expect(window.key(KeyPress(modifiers: .control, text: "s")) == .handled)
        #expect(journal.only("Parent saves", "Child saves") == ["Child saves"])
        // The child's command is offered before the child's own pressesBegan.
        #expect(!journal.entries.contains("Child.pressesBegan ^S"))
    }

    @Test func aFocusedTextFieldKeepsALetterFromAnAncestorsCommand() {
        let journal = Journal()
        let (window, parent, child, _) = tree(journal)
        parent.commands = [KeyCommand(Key(text: "q"), title: "Quit") { journal.add("quit") }]
        let field = TextField(frame: Rect(x: 0, y: 5, width: 10, height: 1))
        child.view.addSubview(field)
        #expect(field.becomeFirstResponder())
        window.type("q")
        #expect(field.text == "q")
        #expect(!journal.entries.contains("quit"))
        field.resignFirstResponder()
        window.type("q")
        #expect(journal.entries.last == "quit")
    }

    @Test func aDisabledCommandDoesNothingAndThePressGoesOn() {
        let journal = Journal()
        let (window, parent, _, _) = tree(journal)
        parent.commands = [KeyCommand(Key(.f2), title: "Rename", isEnabled: false) { journal.add("renamed") }]
        journal.clear()
        #expect(window.key(.f2) != .handled)
        #expect(!journal.entries.contains("renamed"))
    }

    @Test func activeCommandsAreListedDeepestFirstOnePerKey() {
        let journal = Journal()
        let (window, parent, child, _) = tree(journal)
        parent.commands = [
            KeyCommand(Key(text: "q"), title: "Quit") {},
            KeyCommand(Key(text: "s", modifiers: .control), title: "Save all") {},
            KeyCommand(Key(text: "d", modifiers: .control), title: "Debug", isDiscoverable: false) {},
        ]
        child.commands = [KeyCommand(Key(text: "s", modifiers: .control), title: "Save") {}]
        #expect(window.activeKeyCommands == [
            KeyCommand.Summary(key: "^S", title: "Save", owner: "Child"),
            KeyCommand.Summary(key: "q", title: "Quit", owner: "Parent"),
        ])
    }

    @Test func aFooterListsTheActiveCommandsAndFollowsFocus() {
        let journal = Journal()
        let (window, parent, child, pad) = tree(journal)
        parent.commands = [KeyCommand(Key(text: "q"), title: "Quit") {}]
        child.commands = [KeyCommand(Key(.f1), title: "Help") {}]
        let footer = KeyCommandFooter(frame: Rect(x: 0, y: 19, width: 60, height: 1))
        parent.view.addSubview(footer)
        window.refreshKeyCommandFooters()
        #expect(window.compose().text.split(separator: "\n").last.map(String.init)?.hasPrefix("F1 Help  q Quit") == true)
        pad.resignFirstResponder()
        #expect(footer.commands.map(\.title) == ["Quit"])
        #expect(window.compose().text.split(separator: "\n").last.map(String.init)?.hasPrefix("q Quit") == true)
    }

    /// docs/LIFECYCLE.md (footers, "refreshed once"): while touches are handled a focus move
    /// refreshes nothing; the footers and the observer hear the list once, when they are
    /// handled — a frame taken in the middle of them shows the footer as it was.
    @Test func touchesRefreshTheFootersOnceWhenTheyAreHandled() {
        let journal = Journal()
        let (window, parent, _, pad) = tree(journal)
        parent.commands = [KeyCommand(Key(text: "q"), title: "Quit") {}]
        let footer = KeyCommandFooter(frame: Rect(x: 0, y: 19, width: 60, height: 1))
        parent.view.addSubview(footer)
        window.refreshKeyCommandFooters()
        var told = 0
        window.keyCommandsObserver = { _ in told += 1 }

        window.holdingKeyCommandRefresh {
            pad.resignFirstResponder()
            parent.commands = [KeyCommand(Key(text: "x"), title: "Exit") {}]
            window.refreshKeyCommandFooters()
            #expect(told == 0, "nothing is refreshed while touches are handled")
            #expect(footer.commands.map(\.title) == ["Quit"])
        }
        #expect(told == 1)
        #expect(footer.commands.map(\.title) == ["Exit"])

        window.holdingKeyCommandRefresh {
            parent.commands = [KeyCommand(Key(text: "s"), title: "Save") {}]
            window.refreshKeyCommandFooters()
            _ = window.takeFrame(number: 1)
            #expect(footer.commands.map(\.title) == ["Exit"], "a frame in their middle shows the footer as it was")
        }
        #expect(told == 2)
        #expect(footer.commands.map(\.title) == ["Save"])
    }

    /// Issue 20: the window finds its footers again only when a view joined or left a tree
    /// (`ViewTree.treeChanges`), not after every input; a footer added or removed in between
    /// is still seen.
    @Test func aFooterThatJoinsTheTreeLaterListsTheCommandsAndOneThatLeftIsNoLongerSet() {
        let journal = Journal()
        let (window, parent, _, pad) = tree(journal)
        parent.commands = [KeyCommand(Key(text: "q"), title: "Quit") {}]
        let first = KeyCommandFooter(frame: Rect(x: 0, y: 18, width: 60, height: 1))
        parent.view.addSubview(first)
        window.refreshKeyCommandFooters()
        #expect(first.commands.map(\.title) == ["Quit"])

        let second = KeyCommandFooter(frame: Rect(x: 0, y: 19, width: 60, height: 1))
        parent.view.addSubview(second)
        parent.commands = [KeyCommand(Key(text: "s"), title: "Save") {}]
        window.refreshKeyCommandFooters()
        #expect(first.commands.map(\.title) == ["Save"])
        #expect(second.commands.map(\.title) == ["Save"])

        first.removeFromSuperview()
        pad.resignFirstResponder()
        parent.commands = [KeyCommand(Key(text: "x"), title: "Exit") {}]
        window.refreshKeyCommandFooters()
        #expect(first.commands.map(\.title) == ["Save"])
        #expect(second.commands.map(\.title) == ["Exit"])
        weak let gone = first
        _ = consume first
        #expect(gone == nil, "the window's list of footers keeps none alive")
    }

    @Test func theLogNamesAPasteByItsSizeNotItsText() {
        #expect(Key(text: String(repeating: "x", count: 4000), modifiers: .paste).summary == "paste of 4000 bytes")
        #expect(Key(text: String(repeating: "語", count: 40)).summary == String(repeating: "語", count: 32) + "… (40 characters)")
        #expect(Key(.f1).summary == "F1")
    }

    @Test func keysAreNamedAsAFooterShowsThem() {
        #expect(Key(text: "s", modifiers: .control).description == "^S")
        #expect(Key(.tab, modifiers: .shift).description == "Shift+Tab")
        #expect(Key(text: "x", modifiers: .alt).description == "Alt+x")
        #expect(Key(text: " ").description == "Space")
        #expect(Key(.f12).description == "F12")
    }
}
