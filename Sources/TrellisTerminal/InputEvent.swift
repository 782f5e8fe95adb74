import TrellisWire

/// One decoded unit of terminal input, in the order the bytes arrived.
///
/// Keys and touches are the wire protocol's own values so the compositor can forward
/// them unchanged. A paste is its own case rather than a `KeyPress` with `.paste`,
/// because a paste may be far longer than a key message's 4096-byte text limit: the
/// compositor splits it into `.paste`-modified key messages when it routes it.
public enum InputEvent: Sendable, Equatable {
    /// A key: text (one Unicode scalar) or a special key, with modifiers.
    case key(KeyPress)
    /// A mouse button pressed, dragged or released, in 0-based cells.
    case touch(TouchInput)
    /// A mouse wheel notch.
    case scroll(ScrollInput)
    /// The text of one bracketed paste; never interpreted as keys.
    case paste(String)
    /// The terminal window gained (`true`) or lost (`false`) focus.
    case focus(Bool)
    /// The terminal answering a query (`KeyboardProtocol`); the answer is not input.
    case answer(TerminalAnswer)
    /// Bytes that decode to nothing; parsing went on after them.
    case invalid(bytes: [UInt8], reason: String)
}
