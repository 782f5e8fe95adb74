import TrellisWire

/// What was pressed: a special key or text, with its modifiers — the wire protocol's
/// `KeyPress` without its timestamp, so that it can be compared and used as a key
/// command's key.
///
/// Text keys carry their case in the text and never `.shift` (a terminal sends `A`, not
/// Shift+a); control letters are lower case with `.control` (docs/TERMINAL.md).
public struct Key: Hashable, Sendable, CustomStringConvertible {
    public var special: KeyPress.Special
    public var text: String
    public var modifiers: KeyModifiers

    public init(_ special: KeyPress.Special, modifiers: KeyModifiers = []) {
        self.special = special
        self.text = ""
        self.modifiers = modifiers
    }

    public init(text: String, modifiers: KeyModifiers = []) {
        self.special = .none
        self.text = text
        self.modifiers = modifiers
    }

    public init(_ press: KeyPress) {
        special = press.special
        text = press.text
        modifiers = press.modifiers
    }

    /// The text of a bracketed paste: never a command, always one insertion.
    public var isPaste: Bool { modifiers.contains(.paste) }

    /// Text typed as text: no Control or Alt, not a special key. A paste is text too.
    public var isText: Bool { special == .none && !text.isEmpty && modifiers.isDisjoint(with: [.control, .alt]) }

    /// How a footer shows the key: `^S`, `Alt+x`, `Shift+Tab`, `F1`, `q`; `Key(parsing:)`
    /// reads it back.
    public var description: String {
        var name = special == .none ? (text == " " ? "Space" : text) : Key.specialNames[special] ?? "\(special)"
        if modifiers == .control, special == .none, text.count == 1, let c = text.first, c.isASCII, c.isLetter {
            return "^" + name.uppercased()
        }
        if modifiers.contains(.shift) { name = "Shift+" + name }
        if modifiers.contains(.alt) { name = "Alt+" + name }
        if modifiers.contains(.control) { name = "Ctrl+" + name }
        return name
    }

    /// How a log line names the key: as a footer does, but a paste by its size and
    /// other text cut at 32 characters — a key's text may be a 4 KiB piece of a paste.
    public var summary: String {
        if isPaste { return "paste of \(text.utf8.count) bytes" }
        guard text.count > 32 else { return description }
        var short = self
        short.text = String(text.prefix(32))
        return short.description + "… (\(text.count) characters)"
    }

    static let specialNames: [KeyPress.Special: String] = [
        .enter: "Enter", .tab: "Tab", .backspace: "Backspace", .escape: "Esc", .up: "↑", .down: "↓",
        .left: "←", .right: "→", .home: "Home", .end: "End", .pageUp: "PgUp", .pageDown: "PgDn",
        .insert: "Ins", .delete: "Del", .f1: "F1", .f2: "F2", .f3: "F3", .f4: "F4", .f5: "F5", .f6: "F6",
        .f7: "F7", .f8: "F8", .f9: "F9", .f10: "F10", .f11: "F11", .f12: "F12",
    ]
}

/// A key going down (or, where the terminal reports it, up), as a responder sees it:
/// UIKit's `UIPress`. A terminal without the kitty keyboard protocol reports only
/// presses, so there every key arrives as `.began` alone.
///
/// A key held down repeats as another `.began` with `isRepeat` (docs/LIFECYCLE.md,
/// "Keys"): each repeat types a character, moves a selection or fires a command exactly
/// as a press does — as it does on a legacy terminal, whose repeats are presses — so no
/// view handles repeat apart; one that must (a key that toggles) checks `isRepeat`.
public struct Press: Hashable, Sendable {
    public enum Phase: Sendable, Hashable { case began, ended }
    public var phase: Phase
    public var key: Key
    public var timestamp: UInt64
    /// The terminal's key repeat: the key is held, not pressed again (kitty protocol only).
    public var isRepeat: Bool

    public init(phase: Phase = .began, key: Key, timestamp: UInt64 = 0, isRepeat: Bool = false) {
        self.phase = phase
        self.key = key
        self.timestamp = timestamp
        self.isRepeat = isRepeat
    }

    public init(_ press: KeyPress) {
        self.init(
            phase: press.phase == .ended ? .ended : .began, key: Key(press), timestamp: press.timestamp,
            isRepeat: press.phase == .repeated)
    }
}
