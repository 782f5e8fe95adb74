import TrellisCanvas
import TrellisWire

/// What a parent asks of a child in another process where, in one process, its own code
/// would reach into the child: the child's view, loaded on first access, and the child's
/// part of a size transition the parent runs. Sent as reserved requests (docs/PROTOCOL.md
/// §5.7) at exactly the moment the in-process child would be reached, so the callback log
/// is the same in both placements by construction (issue 23).
public enum ProcessChildRequest {
    /// The parent accessed the child's view for the first time: the child loads its own
    /// view now (`loadView`, `viewDidLoad`), not when it becomes a child.
    public static let loadView = "load-view"
    /// A size transition reaches the child: its tree hears `viewWillTransition(to:with:)`
    /// and registers its blocks on a coordinator kept until the parent's runs them. The
    /// payload is the size and duration (`SizeTransition`'s fields, big-endian u32 each).
    /// The child's new size comes as the `size` message its viewport's layout sends.
    public static let sizeTransition = "size-transition"
    /// The parent's coordinator reached the child's place among its alongside blocks.
    public static let alongside = "size-alongside"
    /// The parent's coordinator completes: the child lays out and runs its completions.
    public static let complete = "size-complete"

    /// Focus arrives in the child's tree by Tab or Shift-Tab: its first (payload `first`)
    /// or last (`last`) focusable view takes it. Answered `ok` if one did, `declined` if
    /// the tree has none (docs/LIFECYCLE.md, "Focus across processes").
    public static let focusEnter = "focus-enter"
    /// Focus moved out of the child's tree: whatever is focused there resigns.
    public static let focusResign = "focus-resign"
    /// Child → parent: a view in the child's tree took focus (a click, code), so the
    /// parent's focus moves to the child's viewport, and on up to the root.
    public static let focusTook = "trellis.focus.took"

    /// The child is presented modally (docs/LIFECYCLE.md, "Presented in another
    /// process"), before its view loads: the payload is the style asked for
    /// (`ModalPresentationStyle`'s raw value). Its view fills its window; it has no parent.
    public static let present = "present"
    /// The presented child's dismissal begins: `isBeingDismissed` is true from now until
    /// `presentEnd`.
    public static let dismissing = "dismissing"
    /// The presented child's presentation ended: its view leaves its window, and what
    /// waited for the dismissal runs.
    public static let presentEnd = "present-end"
    /// Child → parent: the presented child asks to be dismissed (`dismiss(animated:)` in
    /// its process); payload `animated` or `now`.
    public static let dismissRequest = "trellis.presentation.dismiss"

    /// The style a `present` request carries; nil if malformed (`.none` is no style to
    /// present in).
    public static func presentationStyle(_ payload: [UInt8]) -> ModalPresentationStyle? {
        ModalPresentationStyle(rawValue: String(decoding: payload, as: UTF8.self)).flatMap { $0 == .none ? nil : $0 }
    }

    /// Whether a `dismissRequest` asks for an animated dismissal; nil if malformed.
    public static func dismissesAnimated(_ payload: [UInt8]) -> Bool? {
        switch String(decoding: payload, as: UTF8.self) {
        case "animated": true
        case "now": false
        default: nil
        }
    }

    /// The key commands a key typed now would be offered to in the child's tree, from its
    /// focused view up (`Window.activeKeyCommands`): JSON, `[KeyCommand.Summary]`.
    /// Compositor → root for `trellis keys`.
    public static let keyCommands = "key-commands"
    /// Child → parent, posted: the list `keyCommands` would answer has changed (focus
    /// moved, a key or a touch changed what the tree offers); the payload is that list.
    /// The parent keeps it, so its own footers and `trellis keys` never wait on a child —
    /// one that hangs cannot hold up a click elsewhere (docs/LIFECYCLE.md, "Keys").
    public static let keyCommandsChanged = "trellis.keys.changed"

    /// A `focusEnter` request's direction: true for Tab (`first`); nil if malformed.
    public static func entersForward(_ payload: [UInt8]) -> Bool? {
        switch String(decoding: payload, as: UTF8.self) {
        case "first": true
        case "last": false
        default: nil
        }
    }

    static func payload(_ s: SizeTransition) -> [UInt8] {
        [s.width, s.height, s.durationMilliseconds].flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
    }

    /// The size transition a `sizeTransition` request carries; nil if malformed.
    public static func sizeTransition(from payload: [UInt8]) -> SizeTransition? {
        guard payload.count == 12 else { return nil }
        let v = (0..<3).map { i in payload[(4 * i)..<(4 * i + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        return SizeTransition(width: v[0], height: v[1], durationMilliseconds: v[2])
    }
}
