import Foundation
import Testing
import TrellisCanvas
import TrellisSeeds
import TrellisWire

/// The demo as issue 5 asks for it: every seed's tab in its own process. The headless
/// compositor, DemoTabs' host and one host per seed, driven through the compositor's
/// control endpoint by what the composed screen shows — so each seed's content below
/// is drawn by another process than the tab bar around it.
///
/// In `MultiProcessTests`, whose tests run one at a time: seven processes beside another
/// session's on two cores made that suite's heartbeat timing miss.
extension MultiProcessTests {

    /// Where `text` starts on `screen` (rows of text), in columns: wide characters before
    /// it on its row take two.
    static func point(of text: String, in screen: String) -> (x: Int32, y: Int32)? {
        for (y, row) in screen.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let range = row.range(of: text) else { continue }
            let x = CharacterWidth.columns(of: String(row[row.startIndex..<range.lowerBound]))
            return (Int32(x + CharacterWidth.columns(of: text) / 2), Int32(y))
        }
        return nil
    }

    /// Taps the middle of `text` on the current screen; false if it is not there.
    static func tap(_ text: String, in s: Session) async throws -> Bool {
        guard let p = point(of: text, in: try await s.screen()) else { return false }
        try await s.tap(p.x, p.y)
        return true
    }

    @Test(.timeLimit(.minutes(2)))
    func theDemoRunsEverySeedInItsOwnProcessBehindItsTab() async throws {
        let s = try Session()
        do {
            try s.launch("trellis-compositor", ["--root", "Demo", "--headless", "--size", "80x24"])
            // The seeds first: each connects to DemoTabs' endpoint as soon as it exists.
            for tab in DemoTabs.tabs {
                try s.launch("trellis-app", [
                    "--host", tab.name, "--class", tab.name, "--parent", "Demo", "--endpoint", try s.endpoint("Demo"),
                ])
            }
            try s.launch("trellis-app", [
                "--host", "Demo", "--class", "DemoTabs", "--parent", "compositor", "--endpoint", try s.endpoint("compositor"),
            ] + DemoTabs.tabs.flatMap { ["--remote-child", $0.name] })
            try await s.connect()

            // S0-1: seed 000's circle, drawn by its process inside the first tab.
            var screen = try await s.waitForScreen { $0.contains("000 circle") && $0.contains("tap me") }
            #expect(screen.contains("tap me"), "\(screen)")

            // Issue 23: seed 000's process presents an alert and a sheet over its tab, and
            // the taps that reach it as messages go to them, not to the tab beneath.
            #expect(try await Self.tap("Alert…", in: s))
            screen = try await s.waitForScreen { $0.contains("Reset the count?") && $0.contains("Cancel") }
            #expect(screen.contains("000 circle"), "the tab bar stays: \(screen)")
            #expect(try await Self.tap("Cancel", in: s))
            screen = try await s.waitForScreen { $0.contains("Alert: cancelled") && !$0.contains("Reset the count?") }
            #expect(try await Self.tap("Sheet…", in: s))
            // It slides up for 0.25 s, hit-tested where it ends (the model frame, as in UIKit):
            // tap its button once the slide is over, where the button stays.
            screen = try await s.waitForScreen { $0.contains("A form sheet") && $0.contains("Close") }
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await Self.tap("Close", in: s))
            screen = try await s.waitForScreen { $0.contains("Sheet: closed") && !$0.contains("A form sheet") }
            #expect(screen.contains("tap me"), "\(screen)")

            // S1-4 and S1-3 in seed 001's process.
            #expect(try await Self.tap("001 embed", in: s))
            screen = try await s.waitForScreen { $0.contains("Sub1") && $0.contains("change") }
            #expect(screen.contains("Sub1"), "\(screen)")
            #expect(try await Self.tap("change", in: s))
            screen = try await s.waitForScreen { $0.contains("Sub2") && !$0.contains("Sub1") }
            #expect(screen.contains("Sub2") && !screen.contains("Sub1"), "\(screen)")
            #expect(try await Self.tap("next", in: s))
            // Waits for the slide to end (the text at its final column): NavigationController
            // does not yet refuse a pop while a push is still sliding, and overlapping the two
            // leaves its content empty.
            screen = try await s.waitForScreen { $0.contains("\n MainDetail: pushed by Main's next") }
            #expect(screen.contains("\n MainDetail: pushed by Main's next"), "\(screen)")
            #expect(try await Self.tap("‹ Back", in: s))
            screen = try await s.waitForScreen { $0.contains("Sub2") && $0.contains("change") }
            #expect(screen.contains("Sub2"), "\(screen)")

            // S2-4: the file-loaded button asks its container (same process) to swap.
            #expect(try await Self.tap("002 files", in: s))
            screen = try await s.waitForScreen { $0.contains("ボタンです") }
            #expect(screen.contains("5. Sub.viewDidLoad"), "\(screen)")
            #expect(try await Self.tap("ボタンです", in: s))
            screen = try await s.waitForScreen { $0.contains("Other: swapped in") }
            #expect(screen.contains("Other: swapped in"), "\(screen)")

            // S3-4: the slide runs and completes in seed 003's process.
            #expect(try await Self.tap("003 cycle", in: s))
            _ = try await s.waitForScreen { $0.contains("showing First") }
            #expect(try await Self.tap("▲ cycle", in: s))
            screen = try await s.waitForScreen { $0.contains("showing Second") }
            #expect(screen.contains("showing Second"), "\(screen)")
            // Issue 20: the compositor ran the slide; seed 003's host declared it and sent
            // no frame per step (0.25 s at 16 ms would be about 15).
            let slide = await Self.sentDuringSlide(by: "Seed003", seconds: 0.25, in: s)
            #expect(slide.animations >= 2 && slide.frames <= 4, "\(slide)")

            // S4-3 and S4-4: the pager turns, and a resize keeps its page.
            #expect(try await Self.tap("004 paging", in: s))
            _ = try await s.waitForScreen { $0.contains("page 0") }
            #expect(try await Self.tap("S4-3 pager", in: s))
            _ = try await s.waitForScreen { $0.contains("Page 0 of 10") }
            try await s.tap(60, 10)  // a tap on the page's right part does not turn it
            #expect(try await Self.tap("○", in: s))  // the first empty dot: one page on
            screen = try await s.waitForScreen { $0.contains("Page 1 of 10") }
            #expect(screen.contains("Page 1 of 10"), "\(screen)")
            _ = try await s.client!.request(.sizeTransition(SizeTransition(width: 120, height: 40)))
            screen = try await s.waitForScreen { $0.split(separator: "\n").count >= 39 && $0.contains("Page 1 of 10") }
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(rows.count == 40 && rows[39].contains("004 paging"), "\(screen)")
            #expect(screen.contains("Page 1 of 10"), "\(screen)")
        } catch {
            await s.stop()
            throw error
        }
        await s.stop()
    }
}
