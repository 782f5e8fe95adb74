import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Alerts" (issue 23): a title, a message and actions, centred as a
/// dialog, chosen by a click or from the keyboard.
@MainActor
@Suite struct AlertControllerTests {
    let clock = ManualClock()

    func shown() -> (Window, ViewController) {
        let window = Window(size: Size(width: 60, height: 20))
        clock.install(on: window)
        let root = ViewController(id: "Root")
        window.rootViewController = root
        window.makeKeyAndVisible()
        return (window, root)
    }

    /// Delete? — Cancel / Delete: the usual alert, recording what was chosen.
    func deleteAlert(_ chosen: @escaping @MainActor (String) -> Void) -> AlertController {
        let alert = AlertController(title: "Delete file?", message: "The file cannot be restored.", id: "Alert")
        alert.addAction(AlertAction(title: "Cancel", style: .cancel) { chosen($0.title) })
        alert.addAction(AlertAction(title: "Delete", style: .destructive) { chosen($0.title) })
        return alert
    }

    func rows(_ window: Window) -> [String] { window.screenText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    @Test func anAlertIsCentredWithItsTitleMessageAndButtons() {
        let (window, root) = shown()
        let alert = deleteAlert { _ in }
        root.present(alert, animated: false)
        let frame = alert.view.convert(alert.view.bounds, to: nil)
        #expect(abs(frame.minX + frame.width / 2 - 30) <= 1)
        #expect(abs(frame.minY + frame.height / 2 - 10) <= 1)
        let text = rows(window)
        #expect(text.contains { $0.contains("Delete file?") })
        #expect(text.contains { $0.contains("The file cannot be restored.") })
        // Two actions side by side, the cancel one first (UIKit's layout for two).
        let buttonRow = text.first { $0.contains("Cancel") }!
        #expect(buttonRow.range(of: "Cancel")!.lowerBound < buttonRow.range(of: "Delete")!.lowerBound)
        #expect(text[frame.minY].contains("╭") && text[frame.maxY - 1].contains("╯"))
        // The destructive action is drawn red.
        let delete = alert.actions[1].button!
        #expect(delete.foregroundColor == .indexed(9))
        // What is beneath is still there: the presenter stays appeared.
        #expect(root.appearanceState == .appeared)
    }

    /// UIKit dismisses the alert, then runs the handler.
    @Test func aClickOnAButtonDismissesTheAlertThenRunsItsHandler() {
        let (window, root) = shown()
        var seen: [String] = []
        let alert = AlertController(title: "Saved", message: nil, id: "Alert")
        alert.addAction(AlertAction(title: "OK") { _ in
            seen.append("OK, presented: \(window.presentedViewControllers.count)")
        })
        root.present(alert, animated: false)
        let ok = alert.actions[0].button!
        let at = ok.convert(Point(x: 1, y: 0), to: nil)
        #expect(window.tap(at: at))
        #expect(seen == ["OK, presented: 0"])
        #expect(alert.appearanceState == .disappeared && root.presentedViewController == nil)
    }

    /// Focus starts on the preferred action (or the first that is not cancel); the arrow
    /// keys and Tab move it between the buttons, Return chooses the focused one.
    @Test func theKeyboardMovesBetweenActionsAndReturnChoosesTheFocusedOne() {
        let (window, root) = shown()
        var chosen: [String] = []
        let alert = AlertController(title: "Export", message: "Choose a format.", id: "Alert")
        for t in ["CSV", "JSON", "YAML"] { alert.addAction(AlertAction(title: t) { chosen.append($0.title) }) }
        alert.addAction(AlertAction(title: "Cancel", style: .cancel) { chosen.append($0.title) })
        alert.preferredAction = alert.actions[1]
        root.present(alert, animated: false)
        #expect(window.focusedView === alert.actions[1].button)
        window.key(.right)
        #expect(window.focusedView === alert.actions[2].button)
        window.key(.right)
        #expect(window.focusedView === alert.actions[3].button)  // Cancel, laid out last
        window.key(.right)
        #expect(window.focusedView === alert.actions[0].button)  // wraps
        window.key(.left)
        window.key(.tab)
        #expect(window.focusedView === alert.actions[0].button)
        #expect(window.key(.enter) == .handled)
        #expect(chosen == ["CSV"])
        #expect(window.presentedViewControllers.isEmpty)
    }

    @Test func returnWithNothingFocusedChoosesThePreferredAction() {
        let (window, root) = shown()
        var chosen: [String] = []
        let alert = deleteAlert { chosen.append($0) }
        alert.preferredAction = alert.actions[1]
        root.present(alert, animated: false)
        _ = window.focusedView?.resignFirstResponder()
        window.key(.enter)
        #expect(chosen == ["Delete"])
    }

    /// Escape is the cancel action; without one, Escape does nothing and the alert stays.
    @Test func escapeChoosesTheCancelAction() {
        let (window, root) = shown()
        var chosen: [String] = []
        root.present(deleteAlert { chosen.append($0) }, animated: false)
        #expect(window.key(.escape) == .handled)
        #expect(chosen == ["Cancel"] && window.presentedViewControllers.isEmpty)
        let plain = AlertController(title: "Note", message: "No way out but OK.", id: "Plain")
        plain.addAction(AlertAction(title: "OK"))
        root.present(plain, animated: false)
        #expect(window.key(.escape) != .handled)
        #expect(window.presentedViewControllers.map(\.id) == ["Plain"])
        #expect(window.activeKeyCommands.contains { $0.title == "OK" } && !window.activeKeyCommands.contains { $0.key == "Esc" })
    }

    @Test func aDisabledActionCannotBeChosen() {
        let (window, root) = shown()
        var chosen: [String] = []
        let alert = deleteAlert { chosen.append($0) }
        alert.actions[1].isEnabled = false
        root.present(alert, animated: false)
        alert.choose(alert.actions[1])
        let at = alert.actions[1].button!.convert(Point(x: 1, y: 0), to: nil)
        window.tap(at: at)
        #expect(chosen.isEmpty && window.presentedViewControllers.count == 1)
    }

    @Test func aSecondCancelActionStopsWithUIKitsMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let alert = AlertController(title: "T", message: nil, id: "Alert")
                alert.addAction(AlertAction(title: "No", style: .cancel))
                alert.addAction(AlertAction(title: "Never", style: .cancel))
            }
        }
        let said = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(said.contains("UIAlertController can only have one action with a style of UIAlertActionStyleCancel"))
    }
}
