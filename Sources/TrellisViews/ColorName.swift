import TrellisWire

/// Colours by name in files and scenes: the 16 ANSI names, a palette index, or #rrggbb.
public enum ColorName {
    static let names: [String: UInt8] = [
        "black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7,
        "brightBlack": 8, "gray": 8, "brightRed": 9, "brightGreen": 10, "brightYellow": 11,
        "brightBlue": 12, "brightMagenta": 13, "brightCyan": 14, "brightWhite": 15,
    ]

    /// nil when `text` is none of the accepted forms.
    public static func parse(_ text: String) -> CellColor? {
        if text == "default" { return .default }
        if let i = names[text] { return .indexed(i) }
        if let i = UInt8(text) { return .indexed(i) }
        if text.hasPrefix("#"), text.count == 7, let v = UInt32(text.dropFirst(), radix: 16) {
            return .rgb(UInt8(v >> 16), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF))
        }
        return nil
    }
}
