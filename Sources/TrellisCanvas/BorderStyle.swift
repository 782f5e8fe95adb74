/// The line a border is drawn with. Box-drawing characters are East Asian Ambiguous,
/// one column in the terminals Trellis targets; `ascii` is for terminals and fonts
/// that have none.
public enum BorderStyle: String, Sendable, CaseIterable {
    case none, single, double, rounded, heavy, ascii

    /// Corner and edge scalars, in the order topLeft, topRight, bottomLeft, bottomRight,
    /// horizontal, vertical. `none` is all spaces so callers need no special case to measure.
    private var scalars: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) {
        switch self {
        case .none: (0x20, 0x20, 0x20, 0x20, 0x20, 0x20)
        case .single: (0x250C, 0x2510, 0x2514, 0x2518, 0x2500, 0x2502)  // ┌ ┐ └ ┘ ─ │
        case .double: (0x2554, 0x2557, 0x255A, 0x255D, 0x2550, 0x2551)  // ╔ ╗ ╚ ╝ ═ ║
        case .rounded: (0x256D, 0x256E, 0x2570, 0x256F, 0x2500, 0x2502)  // ╭ ╮ ╰ ╯ ─ │
        case .heavy: (0x250F, 0x2513, 0x2517, 0x251B, 0x2501, 0x2503)  // ┏ ┓ ┗ ┛ ━ ┃
        case .ascii: (0x2B, 0x2B, 0x2B, 0x2B, 0x2D, 0x7C)  // + + + + - |
        }
    }

    public var topLeft: UInt32 { scalars.0 }
    public var topRight: UInt32 { scalars.1 }
    public var bottomLeft: UInt32 { scalars.2 }
    public var bottomRight: UInt32 { scalars.3 }
    public var horizontal: UInt32 { scalars.4 }
    public var vertical: UInt32 { scalars.5 }

    /// Columns or rows a border of this style takes on each side: 0 for `none`, else 1.
    public var thickness: Int { self == .none ? 0 : 1 }
}
