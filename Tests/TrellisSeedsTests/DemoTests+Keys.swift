import Testing
import TrellisCanvas
import TrellisControllers
import TrellisSeeds
import TrellisViews
import TrellisWire

// The demo from the keyboard, all in one process (issue 22: "Tab through the demo, key
// commands in a footer, a table scrolled by keys and wheel"; issue 23: the split view and
// a modal in the demo). The same across processes: MultiProcessTests+Demo; in tmux:
// TerminalDemoTests.
extension DemoTests {
    /// The footer's row: the one above the tab bar.
    func footer(_ window: Window) -> String { window.row(window.rootView.bounds.height - 2) }

    @Test func theFooterListsTheTabsKeysAndTheFocusedChildsCommandsFirst() throws {
        let (window, demo) = make()
        #expect(footer(window).hasPrefix("F1 circle  F2 embed  F3 files  F4 cycle  F5 paging  F6 keys"), "\(footer(window))")
        #expect(window.key(.f6) == .handled)
        #expect(demo.selectedIndex == 5 && window.shows("304 characters"))
        // Focus in the keys tab's filter field: its controller's ^F comes first.
        #expect(window.tap("type to filter"))
        #expect(footer(window).hasPrefix("^F Filter  F1 circle"), "\(footer(window))")
        // F-keys are not text: typed into the field, they still switch tabs.
        #expect(window.key(.f1) == .handled && demo.selectedIndex == 0)
        #expect(footer(window).hasPrefix("F1 circle"), "\(footer(window))")
    }

    /// Issue 20: the tabs' commands are made once, not on every input — and made again
    /// when the tabs change, or the title a tab that is not a seed's is named by.
    @Test func theTabsKeysFollowTheTabsAndTheirTitles() throws {
        let (window, demo) = make()
        let first = demo.keyCommands.map(\.title)
        #expect(first == ["circle", "embed", "files", "cycle", "paging", "keys"])
        let extra = ViewController(id: "Extra")
        extra.title = "extra"
        demo.viewControllers = Array(demo.viewControllers.prefix(2)) + [extra]
        #expect(demo.keyCommands.map(\.title) == ["circle", "embed", "extra"])
        extra.title = "renamed"
        #expect(demo.keyCommands.map(\.title) == ["circle", "embed", "renamed"])
        window.refreshKeyCommandFooters()
        #expect(footer(window).hasPrefix("F1 circle  F2 embed  F3 renamed"), "\(footer(window))")
        #expect(window.key(.f3) == .handled && demo.selectedIndex == 2)
    }

    @Test func typingIntoTheFilterFieldFiltersTheTable() throws {
        let (window, demo) = make()
        window.key(.f6)
        let keys = try #require(demo.viewControllers[5] as? DemoKeys)
        // Arriving on the tab, typing goes to the filter its placeholder offers.
        #expect(keys.list.filter.isFocused)
        window.type("heavy")
        #expect(window.shows("HEAVY HORIZONTAL") && !window.shows("LIGHT HORIZONTAL"))
        for _ in 0..<5 { window.key(.backspace) }
        // ^F puts focus in the field from wherever it is in the tab.
        #expect(window.tap("U+2501"))
        #expect(window.key(KeyPress(modifiers: .control, text: "f")) == .handled)
        #expect(keys.list.filter.isFocused)
        window.type("letter ka")
        #expect(keys.list.rows.map(\.name) == ["HIRAGANA LETTER KA", "KATAKANA LETTER KA"])
        #expect(window.shows("KATAKANA LETTER KA") && !window.shows("U+2500"))
        #expect(window.shows("2 of 304 match"))
        // The header row stays above what matched.
        #expect(window.shows("Code   Ch Name"))
        // Backspace to "letter": more rows again.
        let few = keys.list.rows.count
        for _ in 0..<3 { window.key(.backspace) }
        #expect(keys.list.rows.count > few)
    }

    @Test func theTableScrollsByKeysAndByTheWheelWithAnIndicator() throws {
        let (window, demo) = make()
        window.key(.f6)
        let keys = try #require(demo.viewControllers[5] as? DemoKeys)
        let table = keys.list.table
        // Tab from the filter field reaches the table (reading order).
        #expect(window.tap("type to filter"))
        #expect(window.key(.tab) == .handled && table.isFocused)
        #expect(window.key(.down) == .handled)
        #expect(table.indexPathForSelectedRow == IndexPath(row: 0, section: 0))
        // The detail column shows the chosen row.
        #expect(window.shows("BOX DRAWINGS LIGHT HORIZONTAL") && window.shows("UTF-8: E2 94 80"))
        window.key(.pageDown)
        window.key(.pageDown)
        #expect(table.indexPathForSelectedRow!.row > 30 && table.firstLine > 10)
        #expect(window.shows("U+25"), "a row further down is on screen")
        // The indicator has left the top; the wheel moves the rows, the selection stays.
        let selected = table.indexPathForSelectedRow
        let top = table.firstLine
        let tablePoint = table.convert(Point(x: 5, y: 3), to: nil)
        #expect(window.scroll(deltaY: 2, at: tablePoint))
        #expect(table.firstLine == top + 6 && table.indexPathForSelectedRow == selected)
        #expect(window.shows("┃") && window.shows("│"))
        window.key(.end)
        #expect(window.shows("KATAKANA LETTER VO"))
    }

    @Test func narrowTheKeysTabIsOneColumnAndEnterOpensTheDetail() throws {
        let (window, demo) = make(Size(width: 60, height: 20))
        window.key(.f6)
        let keys = try #require(demo.viewControllers[5] as? DemoKeys)
        #expect(keys.isCollapsed && keys.list.view.superview != nil && keys.detail.viewIfLoaded?.superview == nil)
        #expect(window.tap("U+2502"))
        #expect(keys.detail.viewIfLoaded?.superview == nil, "one click selects")
        #expect(window.key(.enter) == .handled)
        #expect(keys.detail.view.superview != nil && window.shows("BOX DRAWINGS LIGHT VERTICAL"))
        #expect(footer(window).hasPrefix("Esc Back"), "\(footer(window))")
        #expect(window.key(.escape) == .handled)
        #expect(keys.list.view.superview != nil && window.shows("type to filter"))
        // Wide again: both columns.
        resize(window, to: Size(width: 100, height: 30))
        #expect(!keys.isCollapsed && keys.detail.view.superview != nil && keys.list.view.superview != nil)
    }

    @Test func tabMovesThroughTheCircleTabAndEnterTapsTheCircle() throws {
        let (window, demo) = make()
        let seed = try #require(demo.viewControllers[0] as? Seed000)
        #expect(window.key(.tab) == .handled)
        #expect(window.focusedView?.identifier == "showAlert")
        window.key(.tab)
        #expect(window.focusedView?.identifier == "showSheet")
        window.key(.tab)
        #expect(window.focusedView === seed.circle?.view)
        #expect(window.key(.enter) == .handled)
        #expect(window.shows("child ×1"))
        // Shift-Tab goes back.
        window.key(.tab, modifiers: .shift)
        #expect(window.focusedView?.identifier == "showSheet")
    }

    /// Issue 23's alert, chosen from the keyboard (issue 22: "a modal in a child process
    /// chosen from the keyboard"; here in one process).
    @Test func theAlertIsOpenedAndAnsweredFromTheKeyboard() throws {
        let (window, _) = make()
        func settle() {
            clock.seconds += 0.3
            window.tick()
        }
        window.key(.tab)
        #expect(window.focusedView?.identifier == "showAlert")
        #expect(window.key(.enter) == .handled)
        settle()
        #expect(window.shows("Reset the count?"))
        // The arrows move between Cancel and Reset; Return chooses.
        for _ in 0..<3 where (window.focusedView as? Button)?.title != "Reset" { window.key(.right) }
        #expect((window.focusedView as? Button)?.title == "Reset")
        #expect(window.key(.enter) == .handled)
        settle()
        #expect(window.shows("Alert: reset") && !window.shows("Reset the count?"))
        // Again, and Escape is Cancel.
        #expect(window.focusedView?.identifier == "showAlert", "focus comes back to the button that presented it")
        window.key(.enter)
        settle()
        #expect(window.key(.escape) == .handled)
        settle()
        #expect(window.shows("Alert: cancelled"))
    }
}
