import TrellisControllers
import TrellisViews
import TrellisWire

/// The demo's root (issue 5): a tab bar with one tab per seed, each tab the root
/// controller of that seed's scenarios (docs: /work/shared/SCENARIOS.md, S0 … S4), and a
/// sixth, `DemoKeys`, for the keyboard, text and lists (issues 22 and 23). Above the tab
/// bar, a footer lists the key commands active now (issue 22): the focused child's
/// first, then F1 … F6 for the tabs.
///
/// The tabs are made by name through `registry` — `registry.make("Seed001", id: "Seed001")`
/// — never by type, because that is where placement is decided: in a host whose scene
/// puts a seed in its own process, the name is registered to a `RemoteController` proxy,
/// and the tab bar embeds the proxy exactly as it would the seed itself.
public final class DemoTabs: TabBarController {
    /// The tabs in order: registered class name (also the child's id), tab title, and
    /// the shorter name the footer gives its key.
    public nonisolated static let tabs: [(name: String, title: String, key: String)] = [
        ("Seed000", "000 circle", "circle"),
        ("Seed001", "001 embed", "embed"),
        ("Seed002", "002 files", "files"),
        ("Seed003", "003 cycle", "cycle"),
        ("Seed004", "004 paging", "paging"),
        ("DemoKeys", "005 keys", "keys"),
    ]

    /// The active key commands, one row above the tab bar.
    public let footer = KeyCommandFooter()

    public let registry: ControllerRegistry

    public init(registry: ControllerRegistry, id: ControllerID = "Demo") {
        self.registry = registry
        super.init(id: id)
        title = "Trellis demo"
        viewControllers = Self.tabs.compactMap { tab in
            guard let id = ControllerID(tab.name), let child = registry.make(tab.name, id: id) else {
                // A missing class is a setup error worth seeing, not a reason to show nothing.
                View.diagnostics("DemoTabs: no controller registered as '\(tab.name)'; its tab is left out.")
                return nil
            }
            // Set here, on the object this process holds (a proxy for a remote seed):
            // the tab bar reads the title locally.
            child.title = tab.title
            return child
        }
    }

    /// The tab bar's layout with the footer between the content and the tab bar.
    public override func loadView() {
        let root = View()
        tabBar.identifier = "tabBar"
        tabBar.backgroundColor = .indexed(8)
        contentView.identifier = "tabContent"
        footer.identifier = "footer"
        for v in [contentView, footer, tabBar] {
            root.addSubview(v)
            v.translatesAutoresizingMaskIntoConstraints = false
            LayoutConstraint.activate([
                v.leadingAnchor.constraint(equalTo: root.leadingAnchor),
                v.trailingAnchor.constraint(equalTo: root.trailingAnchor),
            ])
        }
        LayoutConstraint.activate([
            tabBar.bottomAnchor.constraint(equalTo: root.bottomAnchor),
            tabBar.heightAnchor.constraint(equalToConstant: 1),
            footer.bottomAnchor.constraint(equalTo: tabBar.topAnchor),
            footer.heightAnchor.constraint(equalToConstant: 1),
            contentView.topAnchor.constraint(equalTo: root.topAnchor),
            contentView.bottomAnchor.constraint(equalTo: footer.topAnchor),
        ])
        view = root
    }

    /// F1 … F6 select the tabs (issue 22: the demo's tabs switch with keys). They are the
    /// root's, so a key reaches them from wherever focus is unless a deeper responder
    /// takes it — in a session too, where the compositor hands every key to the root.
    ///
    /// Made again only when the tabs changed: the window asks for them after every input
    /// (to list the active commands), and they are the same until then (issue 20).
    public override var keyCommands: [KeyCommand] {
        let tabs = viewControllers.prefix(Self.functionKeys.count)
        if let made = madeCommands, made.tabs.elementsEqual(tabs.indices, by: { $0.names(tabs[$1], at: $1) }) {
            return made.commands
        }
        let named = tabs.indices.map { NamedTab(tabs[$0], at: $0) }
        let commands = named.indices.map { i in
            KeyCommand(Key(Self.functionKeys[i]), title: named[i].title) { [weak self] in self?.selectedIndex = i }
        }
        madeCommands = (named, commands)
        return commands
    }

    private static let functionKeys: [KeyPress.Special] = [.f1, .f2, .f3, .f4, .f5, .f6, .f7, .f8, .f9]

    /// The commands last made, and the tabs they were made for.
    private var madeCommands: (tabs: [NamedTab], commands: [KeyCommand])?

    /// What a tab's command is titled by: the footer's short name for a seed's tab, found
    /// by the tab's id (which never changes), otherwise its title (which may).
    private struct NamedTab {
        let id: ControllerID
        let title: String
        let isSeed: Bool

        init(_ tab: ViewController, at i: Int) {
            id = tab.id
            let seed = DemoTabs.tabs.first { $0.name == tab.id.rawValue }
            isSeed = seed != nil
            title = seed?.key ?? Self.title(of: tab, at: i)
        }

        /// Whether a command made for this names `tab` at `i` as it would be named now.
        func names(_ tab: ViewController, at i: Int) -> Bool {
            tab.id == id && (isSeed || Self.title(of: tab, at: i) == title)
        }

        private static func title(of tab: ViewController, at i: Int) -> String { tab.title ?? "Tab \(i + 1)" }
    }
}
