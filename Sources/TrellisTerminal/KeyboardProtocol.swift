/// The kitty keyboard protocol, asked for without guessing (docs/TERMINAL.md,
/// "Keyboard protocol"; issue 22).
///
/// On entering its modes the compositor asks `CSI ? u` (which enhancements are on?)
/// then `CSI c` (primary device attributes). A terminal that speaks the protocol answers
/// the first with `CSI ? flags u` before it answers the second, so the second answer
/// settles it: flags first mean push ours (`CSI > flags u`), the attributes alone mean a
/// legacy terminal, left exactly as it was. Nothing waits for either answer: keys read
/// meanwhile decode as legacy bytes, so a terminal that never answers (tmux without
/// extended keys) costs the first key nothing.
///
/// The push is popped (`CSI < u`) by `TerminalModes.leaveBytes`, while the alternate
/// screen is still showing: the terminal keeps a stack per screen, so the pop reaches
/// the stack the push went to, never the shell's, and popping an empty one is ignored —
/// which lets every restore path, the supervisor's included, pop without knowing
/// whether anything was pushed.
public struct KeyboardProtocol: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// Asked; no answer yet. Keys are legacy bytes meanwhile.
        case asking
        /// The terminal answered `CSI ? u`, and our flags are pushed.
        case enhanced
        /// The terminal answered the attributes without the flags: legacy bytes only.
        case legacy
    }

    /// Disambiguate escape codes (1: Esc, Alt+key and Ctrl+key as `CSI u`, so a lone Esc
    /// needs no timeout), report event types (2: repeat and release), report alternate
    /// keys (4: the shifted key, so Alt+Shift+1 is Alt+! as legacy bytes say). Not 8
    /// (every key as an escape code) nor 16 (the text with it): text keys keep arriving
    /// as the UTF-8 text they type, so input methods, dead keys and layouts work as in
    /// any legacy terminal.
    public static let flags = 0b111

    /// `CSI ? u` then `CSI c`, written after the modes are entered.
    public static var queryBytes: [UInt8] { Array("\u{1B}[?u\u{1B}[c".utf8) }
    /// `CSI > flags u`: pushes `flags` on the terminal's stack.
    public static var pushBytes: [UInt8] { Array("\u{1B}[>\(flags)u".utf8) }
    /// `CSI < u`: pops one entry; harmless when the stack is empty.
    public static var popBytes: [UInt8] { Array("\u{1B}[<u".utf8) }

    public private(set) var state = State.asking

    public init() {}

    /// Takes one answer; returns the bytes to write to the terminal, if any. Only the
    /// first answer while asking counts: a late or repeated one changes nothing.
    public mutating func take(_ answer: TerminalAnswer) -> [UInt8]? {
        guard state == .asking else { return nil }
        switch answer {
        case .keyboardFlags:
            state = .enhanced
            return Self.pushBytes
        case .deviceAttributes:
            state = .legacy
            return nil
        }
    }
}
