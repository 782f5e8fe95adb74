import TrellisViews
import TrellisWire

extension Window {
    /// The key commands a key typed now would be offered to: those of every responder
    /// from the focused view (or, with nothing focused, the root controller) up the
    /// responder chain to the window, deepest first, one per key — the deepest
    /// responder's, which is the one that would run. Commands that are not discoverable
    /// are left out. What a footer lists, and what `trellis keys` prints. With focus in a
    /// child hosted elsewhere, its tree's commands come first, as its host lists them.
    public var activeKeyCommands: [KeyCommand.Summary] {
        var responder: Responder? = focusedView ?? inputController ?? rootView
        // A presented controller in another process lists its tree's through its viewport.
        if focusedView == nil, let remote = inputController as? RemoteController, let viewport = remote.viewIfLoaded {
            responder = viewport
        }
        var seen = Set<String>(minimumCapacity: 16)
        var out: [KeyCommand.Summary] = []
        out.reserveCapacity(16)
        while let r = responder {
            if let viewport = r as? RemoteViewport, let remote = viewport.proxy?.activeKeyCommands {
                for command in remote where seen.insert(command.key).inserted { out.append(command) }
            }
            for command in r.keyCommands where command.isDiscoverable && seen.insert(command.keyName).inserted {
                out.append(KeyCommand.Summary(
                    key: command.keyName, title: command.title, isEnabled: command.isEnabled, owner: Self.name(of: r)))
            }
            responder = r.next
        }
        return out
    }

    /// Sets every `KeyCommandFooter` in the window to `activeKeyCommands`, and tells
    /// `keyCommandsObserver`. The window calls it when focus moves and after each key and
    /// touch; call it after changing what `keyCommands` returns.
    public func refreshKeyCommandFooters() {
        guard keyCommandRefreshHolds == 0 else { return }
        let footers = keyCommandFooters
        guard !footers.isEmpty || keyCommandsObserver != nil else { return }
        let commands = activeKeyCommands
        for f in footers { f.commands = commands }
        keyCommandsObserver?(commands)
    }

    /// Runs `body`, the handling of touches, and then refreshes the footers once. A click
    /// moves focus and may switch a tab, and each asked for a refresh: each walked the
    /// responder chain for a list no one saw before the touches' own frame, which comes
    /// after them. A frame composed in their middle — a tab switch shows its new tab
    /// before the dids — shows the footer as it was: it is the new tab that is waited for.
    public func holdingKeyCommandRefresh<T>(_ body: () -> T) -> T {
        keyCommandRefreshHolds += 1
        let result = body()
        keyCommandRefreshHolds -= 1
        if keyCommandRefreshHolds == 0 { refreshKeyCommandFooters() }
        return result
    }

    /// Every `KeyCommandFooter` in the window's tree. Found by walking the tree only when a
    /// view joined or left one since (`ViewTree.treeChanges`): this runs after every input, in
    /// every host, and the tree seldom changes between two.
    var keyCommandFooters: [KeyCommandFooter] {
        if let found = footersFound, found.at == tree.treeChanges {
            return found.footers.compactMap(\.footer)
        }
        var footers: [KeyCommandFooter] = []
        func find(_ v: View) {
            if let f = v as? KeyCommandFooter { footers.append(f) }
            for s in v.subviews { find(s) }
        }
        find(rootView)
        footersFound = (tree.treeChanges, footers.map { WeakFooter(footer: $0) })
        return footers
    }

    /// Weak: a footer that left the tree is not kept alive by the list it was found in.
    struct WeakFooter {
        weak var footer: KeyCommandFooter?
    }

    private static func name(of responder: Responder) -> String {
        switch responder {
        case let c as ViewController: c.id.rawValue
        case let v as View: v.identifier ?? String(describing: Swift.type(of: v))
        default: String(describing: Swift.type(of: responder))
        }
    }
}
