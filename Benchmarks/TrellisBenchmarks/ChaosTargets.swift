import TrellisCanvas
import TrellisClient

/// Where `trellis bench chaos` taps on the demo: each tab of the tab bar (the root's own
/// buttons), and one point inside each tab's content (a button of that seed where it
/// has a harmless one, else the middle of the content area), which only that tab's
/// child process can answer.
struct ChaosTargets: Sendable {
    /// The tab bar's tabs, in order; index i selects child `children[i]`.
    let tabs: [Point]
    /// A point inside tab i's content.
    let content: [Point]
    let children: [String]

    /// Buttons whose action leaves the screen's layout as it was, so the same point can
    /// be tapped again and again; a tab without one is tapped in the middle of its content.
    static let steadyButtons: [String: [String]] = [
        "Seed000": ["tap me"],
        "Seed001": ["change"],
    ]

    /// The middle of the content area: the rows on the far side of the tab bar from the
    /// screen's nearer edge (the demo's tab bar is its last row).
    static func contentMiddle(of screen: String, tabRow: Int) -> Point {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let width = rows.map { CharacterWidth.columns(of: String($0)) }.max() ?? 80
        let (top, bottom) = tabRow >= rows.count / 2 ? (0, tabRow - 1) : (tabRow + 1, rows.count - 1)
        return Point(x: width / 2, y: (top + bottom) / 2)
    }

    /// The tab points from a screen showing the tab bar with titles `titles`.
    static func tabs(_ titles: [String], on screen: String) throws -> [Point] {
        try titles.map { title in
            guard let p = ScreenText.locate(title, in: screen) else { throw BenchError("the tab \(title.debugDescription) is not on the screen:\n\(screen)") }
            return p
        }
    }

    /// The cycle of taps: a tab, then `perTab` taps inside it, then the next tab, skipping
    /// `avoiding` (the stopped child's tab: selecting it would make the root wait for it).
    struct Cycle: Sendable {
        var perTab: Int
        var avoiding: Int?
        private var tab = 0
        private var step = 0

        init(perTab: Int) { self.perTab = perTab }

        /// The next point and what it needs: the tab index, and whether it is the tab
        /// itself (the root alone answers) or inside its content (its child must).
        mutating func next(in targets: ChaosTargets) -> (point: Point, tab: Int, inside: Bool) {
            if step > perTab || tab == avoiding {
                step = 0
                repeat { tab = (tab + 1) % targets.tabs.count } while tab == avoiding
            }
            defer { step += 1 }
            return step == 0 ? (targets.tabs[tab], tab, false) : (targets.content[tab], tab, true)
        }
    }
}
