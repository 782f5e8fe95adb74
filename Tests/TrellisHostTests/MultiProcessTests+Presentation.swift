import Foundation
import Testing
import TrellisWire

/// Issue 23, a presented controller in another process, end to end: the headless
/// compositor, the presenter's host and the presented controller's host, driven through
/// the control endpoint by what the composed screen shows (docs/LIFECYCLE.md, "Presented
/// in another process").
extension MultiProcessTests {
    /// A tap on the presenter's button presents a form sheet whose process draws it, composed
    /// centred above the presenter, which shows around it; a tap on its "close" — input
    /// to the sheet's process — dismisses it from there, and the presenter is alone again.
    @Test(.timeLimit(.minutes(1)))
    func aSheetInAnotherProcessIsComposedAboveItsPresenter() async throws {
        let s = try Session()
        do {
            try s.launch("trellis-compositor", ["--root", "Container", "--headless", "--size", "80x24"])
            try s.launch("trellis-app", [
                "--host", "Sheet", "--class", "ParityPresented", "--parent", "Container", "--endpoint", try s.endpoint("Container"),
            ])
            try s.launch("trellis-app", [
                "--host", "Container", "--class", "ParityPresenter", "--parent", "compositor", "--endpoint", try s.endpoint("compositor"),
                "--remote-child", "ParityPresented",
            ])
            try await s.connect()
            var screen = try await s.waitForScreen { $0.contains("push") && $0.contains("beneath the sheet") }
            #expect(!screen.contains("close") && screen.contains("beneath the sheet"), "\(screen)")
            #expect(try await Self.tap("push", in: s))
            // 80 columns: a regular width, so a 20×6 sheet centred at (30, 9); the sheet's
            // "close" is at (1, 2) in it, drawn by its own process.
            screen = try await s.waitForScreen { $0.contains("close") }
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let close = Self.point(of: "close", in: screen)
            #expect(close?.y == 11 && (31...37).contains(close?.x ?? 0), "the button's cells, 31 to 37: \(screen)")
            #expect(rows.count > 2 && rows[2].contains("push"), "the presenter shows around the sheet: \(screen)")
            #expect(!screen.contains("beneath"), "the sheet is composed above the presenter's label: \(screen)")
            // `trellis tree`: the compositor's reply lists the sheet under its presenter, as
            // its own process describes it, in the style the presenter shows it in; the
            // text is what the CLI prints.
            let reply = try await s.client!.request(.request(Request(name: "tree")))
            guard case .reply(let r) = reply.message else { throw CancellationError() }
            let tree = try JSONDecoder().decode(ControllerDescription.self, from: Data(r.payload))
            #expect(tree.presented?.map(\.id) == ["Sheet"] && tree.find("Sheet")?.presentationStyle == "formSheet", "\(tree.text())")
            #expect(tree.find("Sheet")?.frame == [30, 9, 20, 6] && tree.find("Sheet")?.pid != tree.pid, "\(tree.text())")
            #expect(tree.text().contains("\n  Sheet  ParityPresented  process pid"), "\(tree.text())")
            #expect(try await Self.tap("close", in: s))
            screen = try await s.waitForScreen { !$0.contains("close") && $0.contains("beneath the sheet") }
            #expect(!screen.contains("close") && screen.contains("push") && screen.contains("beneath the sheet"), "\(screen)")
        } catch {
            await s.stop()
            throw error
        }
        await s.stop()
    }

    /// Issue 23, "Presented from a child in another process", end to end: the child's
    /// process presents a controller of its own, and the compositor shows it where one
    /// process would — a sheet centred on the terminal, above the container and the child
    /// that show around it; full screen, the whole terminal — drawn by the child's process;
    /// its "close", a tap on that surface, dismisses it from there.
    @Test(.timeLimit(.minutes(1)))
    func aControllerPresentedFromAChildIsComposedOverTheWholeScreen() async throws {
        let s = try Session()
        do {
            try s.launch("trellis-compositor", ["--root", "Container", "--headless", "--size", "80x24"])
            try s.launch("trellis-app", [
                "--host", "Child", "--class", "ParityChildPresenter", "--parent", "Container", "--endpoint", try s.endpoint("Container"),
            ])
            try s.launch("trellis-app", [
                "--host", "Container", "--class", "ParityPresentingContainer", "--parent", "compositor",
                "--endpoint", try s.endpoint("compositor"), "--remote-child", "ParityChildPresenter",
            ])
            try await s.connect()
            var screen = try await s.waitForScreen { $0.contains("sheet") && $0.contains("full") }
            #expect(try await Self.tap("sheet", in: s))
            // 80 columns: regular, so the 20×6 sheet is centred on the terminal at (30, 9),
            // not on the child's viewport (1, 1, 78×22); its "close" at (1, 2) in it.
            screen = try await s.waitForScreen { $0.contains("close") }
            let close = Self.point(of: "close", in: screen)
            #expect(close?.y == 11 && (31...37).contains(close?.x ?? 0), "\(screen)")
            #expect(screen.contains("full") && screen.contains("over"), "the child shows around the sheet: \(screen)")
            #expect(try await Self.tap("close", in: s))
            screen = try await s.waitForScreen { !$0.contains("close") && $0.contains("sheet") }
            #expect(try await Self.tap("full", in: s))
            // Full screen: the child's process draws the whole terminal; the child is gone.
            screen = try await s.waitForScreen { $0.contains("close") && !$0.contains("sheet") }
            let full = Self.point(of: "close", in: screen)
            #expect(full?.y == 2 && (1...7).contains(full?.x ?? 0), "at (1, 2) of the terminal, the button's cells 1 to 7: \(screen)")
            #expect(try await Self.tap("close", in: s))
            screen = try await s.waitForScreen { !$0.contains("close") && $0.contains("sheet") }
            #expect(screen.contains("full"), "\(screen)")
        } catch {
            await s.stop()
            throw error
        }
        await s.stop()
    }
}
