/// The terminal modes a full-screen application turns on, as the bytes that enter them
/// and the bytes that leave them again.
///
/// Entering, in order: the alternate screen (1049, which also saves the cursor), hidden
/// cursor (25), mouse reports (1000 presses, 1002 drags, 1006 in SGR form), bracketed paste
/// (2004), focus events (1004). Leaving undoes them in reverse order, after ending any
/// synchronized update a frame interrupted mid-write left open (2026) and resetting SGR,
/// so the shell gets its screen, cursor and colours back as they were.
///
/// With `keyboardProtocol`, entering ends with the kitty keyboard protocol's query and
/// leaving pops what its answer pushed, before the alternate screen is left
/// (`KeyboardProtocol`).
///
/// Only bytes: writing them is the caller's, and `leaveBytes` is made to be computed
/// before a signal handler needs it (see `TerminalRestorer`).
public struct TerminalModes: Sendable, Hashable {
    public var alternateScreen: Bool
    public var hideCursor: Bool
    /// Presses, releases, drags and wheel, reported as CSI < … M/m.
    public var mouse: Bool
    public var bracketedPaste: Bool
    public var focusEvents: Bool
    /// Ask for the kitty keyboard protocol (press, repeat and release). Only with the
    /// alternate screen, whose stack of keyboard flags is the compositor's alone.
    public var keyboardProtocol: Bool

    public init(
        alternateScreen: Bool = true, hideCursor: Bool = true, mouse: Bool = true, bracketedPaste: Bool = true,
        focusEvents: Bool = false, keyboardProtocol: Bool = true
    ) {
        self.alternateScreen = alternateScreen
        self.hideCursor = hideCursor
        self.mouse = mouse
        self.bracketedPaste = bracketedPaste
        self.focusEvents = focusEvents
        self.keyboardProtocol = keyboardProtocol
    }

    /// Whether the query is written and its push popped.
    public var asksKeyboardProtocol: Bool { keyboardProtocol && alternateScreen }

    /// The private modes (CSI ? n h) these settings turn on, in the order they are entered.
    public var privateModes: [Int] {
        var modes: [Int] = []
        if alternateScreen { modes.append(1049) }
        if hideCursor { modes.append(25) }
        if mouse { modes += [1000, 1002, 1006] }
        if bracketedPaste { modes.append(2004) }
        if focusEvents { modes.append(1004) }
        return modes
    }

    /// Sets each mode of `privateModes`, in order.
    public var enterBytes: [UInt8] {
        var out: [UInt8] = []
        for mode in privateModes {
            // Hiding the cursor is a reset (l) of mode 25, not a set.
            Self.appendPrivateMode(mode, set: mode != 25, to: &out)
        }
        if asksKeyboardProtocol { out += KeyboardProtocol.queryBytes }
        return out
    }

    /// Ends a synchronized update, resets SGR, pops the keyboard flags, then undoes
    /// `privateModes` in reverse.
    public var leaveBytes: [UInt8] {
        var out: [UInt8] = []
        Self.appendPrivateMode(2026, set: false, to: &out)
        out.appendASCII("\u{1B}[m")
        if asksKeyboardProtocol { out += KeyboardProtocol.popBytes }
        for mode in privateModes.reversed() {
            Self.appendPrivateMode(mode, set: mode == 25, to: &out)
        }
        return out
    }

    /// CSI ? mode h (set) or l (reset).
    static func appendPrivateMode(_ mode: Int, set: Bool, to out: inout [UInt8]) {
        out.appendCSI()
        out.append(UInt8(ascii: "?"))
        out.appendDecimal(mode)
        out.append(UInt8(ascii: set ? "h" : "l"))
    }
}
