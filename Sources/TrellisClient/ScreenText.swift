import TrellisCanvas

/// Finding text on a composed screen, in cells: a wide character takes two columns,
/// so the column of a match is the sum of the widths before it, not its index.
public enum ScreenText {
    /// The middle cell of the first occurrence of `text` (searched row by row).
    public static func locate(_ text: String, in screen: String) -> Point? {
        guard !text.isEmpty else { return nil }
        for (y, line) in screen.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let range = line.range(of: text) else { continue }
            let column = CharacterWidth.columns(of: String(line[..<range.lowerBound]))
            let width = CharacterWidth.columns(of: text)
            return Point(x: column + max(0, width - 1) / 2, y: y)
        }
        return nil
    }
}
