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
    /// Child → parent, posted: the presented child — or a controller of a child's tree with
    /// nothing presented in its process — asks to be dismissed (`dismiss(animated:)` there);
    /// payload `animated` or `now`.
    public static let dismissRequest = "trellis.presentation.dismiss"
    /// Parent → child, posted: what a `dismissRequest` asked has been done (or there was
    /// nothing to dismiss): the completions waiting in the child run.
    public static let dismissDone = "dismiss-done"

    /// Child → parent, posted: a controller of the child's process, hosted there apart on
    /// a link of its own, is presented from the child — the parent's process presents its
    /// stand-in from the child's, so that it covers what it would in one process
    /// (docs/LIFECYCLE.md, "Presented from a child in another process"). The payload is
    /// `style transition animated|now WIDTHxHEIGHT presented`: the style, the transition
    /// style, the animation, the presented controller's `preferredContentSize` and its id.
    public static let presentFromChild = "trellis.presentation.present-from-child"
    /// Parent → child: the presentation `presentFromChild` asked for has been made — its
    /// presented controller appeared — so the presenter's completion runs (payload: its id).
    public static let presentedFromChild = "presented-from-child"

    /// What a `presentFromChild` request asks; nil if malformed.
    public static func presentsFromChild(_ payload: [UInt8]) -> PresentFromChild? {
        let parts = String(decoding: payload, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, let style = presentationStyle(Array(parts[0].utf8)),
              let transition = ModalTransitionStyle(rawValue: parts[1]),
              let animated = dismissesAnimated(Array(parts[2].utf8)), let presented = ControllerID(parts[4])
        else { return nil }
        let size = parts[3].split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard size.count == 2, let w = size[0], let h = size[1], (0...Int(UInt16.max)).contains(w), (0...Int(UInt16.max)).contains(h) else {
            return nil
        }
        return PresentFromChild(style: style, transition: transition, animated: animated, preferred: Size(width: w, height: h), presented: presented)
    }

    /// What a `presentFromChild` request carries.
    public struct PresentFromChild: Equatable, Sendable {
        public var style: ModalPresentationStyle
        public var transition: ModalTransitionStyle
        public var animated: Bool
        public var preferred: Size
        public var presented: ControllerID

        public init(style: ModalPresentationStyle, transition: ModalTransitionStyle, animated: Bool, preferred: Size, presented: ControllerID) {
            self.style = style
            self.transition = transition
            self.animated = animated
            self.preferred = preferred
            self.presented = presented
        }

        public var payload: [UInt8] {
            Array("\(style.rawValue) \(transition.rawValue) \(animated ? "animated" : "now") \(preferred.width)x\(preferred.height) \(presented.rawValue)".utf8)
        }
    }

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
