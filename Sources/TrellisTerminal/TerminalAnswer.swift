/// What a terminal says back to a query the compositor wrote (docs/TERMINAL.md,
/// "Keyboard protocol"): never a key, so never delivered as one.
public enum TerminalAnswer: Sendable, Equatable {
    /// `CSI ? flags u`: the terminal speaks the kitty keyboard protocol, and these
    /// progressive enhancements are on now.
    case keyboardFlags(Int)
    /// `CSI ? … c`: the primary device attributes. Every terminal answers this, so it
    /// says that any answer to an earlier query has come, or never will.
    case deviceAttributes
}
