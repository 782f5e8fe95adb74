import TrellisCanvas
import TrellisLog
import TrellisViews
import TrellisWire

/// What became of a key: handled by some responder, or by nothing — then the reason,
/// which a `key` message's declined reply carries as its payload.
public enum KeyOutcome: Equatable, Sendable {
    case handled
    case unhandled(reason: String)
}

extension ViewController {
    /// A `key` message for this controller — from the compositor (or the window) at the
    /// root, from the parent below it. Answered nil when something handled it, else
    /// declined with the reason (docs/LIFECYCLE.md, "Keys").
    ///
    /// The key goes where touches go, with focus in place of hit-testing: to the focused
    /// view when it is in this controller's own tree; to the child whose tree holds it,
    /// as a `key` message, when it is deeper — and if that child's tree declines, on up
    /// this tree from the superview of the child's root view; to this controller itself
    /// when nothing below it is focused. Either way the press then travels up the
    /// responder chain to this controller, each responder's key commands first. At the
    /// root, the chain ends in the window, where Tab and Shift-Tab move focus.
    func routeKeyMessage(_ key: KeyPress) -> Reply? {
        let presses: Set<Press> = [Press(key)]
        if routeKey(key, presses) { return nil }
        if parent == nil, let top = viewIfLoaded?.superview, top.deliverReportingHandled(presses) { return nil }
        return Reply(status: .declined, payload: Array(unhandledReason(for: key).utf8))
    }

    private func routeKey(_ key: KeyPress, _ presses: Set<Press>) -> Bool {
        guard let root = viewIfLoaded, let focused = root.focusSystem?.focusedView, focused.isDescendant(of: root) else {
            return deliverReportingHandled(presses)
        }
        let owner = focused.layoutRoot.owner as? ViewController
        if owner === self { return focused.deliverReportingHandled(presses) }
        guard let owner, let child = children.first(where: { owner.isDescendant(of: $0) }),
              let viewport = child.viewIfLoaded, viewport.isDescendant(of: root), let above = viewport.superview
        else { return deliverReportingHandled(presses) }
        if send(.key(key), to: child) == nil { return true }
        return above.deliverReportingHandled(presses)
    }

    /// "unhandled: no responder took F12 (nothing focused; from Demo up to the window)".
    private func unhandledReason(for key: KeyPress) -> String {
        let path: String
        if let focused = viewIfLoaded?.focusSystem?.focusedView, focused.isDescendant(of: view) {
            let name = focused.identifier ?? String(describing: type(of: focused))
            let owner = (focused.layoutRoot.owner as? ViewController)?.id.rawValue ?? "no controller"
            path = "from the focused \(name) of \(owner) up to \(parent == nil ? "the window" : id.rawValue)"
        } else {
            path = "nothing focused; from \(id) up to \(parent == nil ? "the window" : "itself")"
        }
        return "unhandled: no responder took \(key.pressName) (\(path))"
    }
}

extension KeyPress {
    /// The key as the log and an unhandled reason name it: `x`, `x (repeat)`, `x (release)`.
    var pressName: String {
        switch phase {
        case .began: Key(self).summary
        case .repeated: Key(self).summary + " (repeat)"
        case .ended: Key(self).summary + " (release)"
        }
    }
}

extension Window {
    /// One key as the terminal sends it, delivered from the root down to the focus and up
    /// the responder chain as the compositor's `key` message is (docs/LIFECYCLE.md, "Keys").
    @discardableResult
    public func key(_ key: KeyPress) -> KeyOutcome {
        // The topmost presented controller, if any, takes the key: a modal blocks what is beneath.
        guard let root = inputController else { return .unhandled(reason: "unhandled: the window has no root controller") }
        var stamped = key
        if stamped.timestamp == 0 { stamped.timestamp = MonotonicClock.nanoseconds() }
        route(kind: "key", from: "window", to: root.id, outcome: .delivered, reason: nil, detail: key.pressName)
        defer { refreshKeyCommandFooters() }
        guard let reply = root.keyMessage(stamped) else { return .handled }
        if reply.status == .declined, dismissesTopPresentationInteractively(stamped) { return .handled }
        let why = String(decoding: reply.payload, as: UTF8.self)
        route(kind: "key", from: root.id, to: "window", outcome: .dropped, reason: why, detail: key.pressName)
        return .unhandled(reason: why)
    }

    /// A special key, as the terminal sends it.
    @discardableResult
    public func key(_ special: KeyPress.Special, modifiers: KeyModifiers = []) -> KeyOutcome {
        key(KeyPress(special: special, modifiers: modifiers))
    }

    /// Types `text` one character at a time, as a terminal sends typing; returns what
    /// became of each key.
    @discardableResult
    public func type(_ text: String) -> [KeyOutcome] {
        text.map { key(KeyPress(text: String($0))) }
    }

    /// A bracketed paste: one `key` with the `.paste` modifier and the whole text.
    @discardableResult
    public func paste(_ text: String) -> KeyOutcome {
        key(KeyPress(modifiers: .paste, text: text))
    }
}
