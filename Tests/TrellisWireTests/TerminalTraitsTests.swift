import Testing
import TrellisWire

/// The terminal-traits rule lives once, in the wire, so the compositor (for a session's
/// root) and a window (for a tree in one process) send the same traits for the same
/// terminal (issue 20, "the terminal-traits rule in one place"; docs/LIFECYCLE.md).
@Suite("The traits a terminal gives")
struct TerminalTraitsTests {
    @Test("80×24 is the smallest regular size: one column or row less is compact")
    func sizeClassesStartAtTheClassicTerminal() {
        #expect(Traits.sizeClasses(columns: 79, rows: 24) == (.compact, .regular))
        #expect(Traits.sizeClasses(columns: 80, rows: 23) == (.regular, .compact))
        #expect(Traits.sizeClasses(columns: 80, rows: 24) == (.regular, .regular))
    }

    @Test("a terminal's size sets the size classes and keeps the rest of the environment")
    func sizeReplacesOnlyTheSizeClasses() {
        var environment = Traits.terminalEnvironment
        environment.colorDepth = .ansi256
        environment.horizontal = .regular
        let t = environment.onTerminal(columns: 40, rows: 30)
        #expect(t == Traits(horizontal: .compact, vertical: .regular, style: .dark, direction: .leftToRight,
                            colorDepth: .ansi256, contentSize: .medium))
    }
}
