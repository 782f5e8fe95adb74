/// What a terminal says about the environment a controller draws for. The compositor
/// (for the root of a session) and the window (for a tree in one process) both answer
/// with this, so a tree sees the same traits whichever of them is its parent
/// (docs/LIFECYCLE.md, "Traits").
extension Traits {
    /// A terminal's environment when nothing says otherwise: dark, left to right, true
    /// colour, medium text. Size classes are left to the size (`onTerminal`).
    public static let terminalEnvironment = Traits(
        style: .dark, direction: .leftToRight, colorDepth: .trueColor, contentSize: .medium)

    /// Terminal widths below 80 columns are compact, like an iPhone's width; 80 and
    /// more are regular. Heights below 24 rows are compact. 80×24 is the terminal's
    /// classic size, the smallest most full-screen programs are designed for, so
    /// "regular" means "at least what a full-screen program expects".
    public static func sizeClasses(columns: Int, rows: Int) -> (horizontal: SizeClass, vertical: SizeClass) {
        (columns < 80 ? .compact : .regular, rows < 24 ? .compact : .regular)
    }

    /// This environment on a terminal of `columns` × `rows`: its size classes are the
    /// size's, every other field is kept.
    public func onTerminal(columns: Int, rows: Int) -> Traits {
        let classes = Self.sizeClasses(columns: columns, rows: rows)
        var t = self
        t.horizontal = classes.horizontal
        t.vertical = classes.vertical
        return t
    }
}
