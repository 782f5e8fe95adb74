import TrellisCanvas

/// The vertical scroll indicator of ScrollView, TableView and TextView (issue 22;
/// docs/VIEWS.md, "Scroll indicators"): a thin bar in the view's last column, shown only
/// while the content is taller than the view. The track is `│` dimmed, the thumb `┃` —
/// box-drawing lines, one column wide in every terminal font, as `less`-like pagers and
/// tmux's copy mode leave the text beside them readable. The thumb's length is the part
/// of the content on screen, its place where that part is; it touches the top exactly
/// when the first line is on screen and the bottom exactly when the last one is.
public enum ScrollIndicator {
    public static let track = "│"
    public static let thumb = "┃"

    /// The rows of a `length`-row track the thumb covers when `visible` of `total` lines
    /// are shown from line `offset`; nil when everything fits (nothing to indicate).
    public static func thumb(length: Int, visible: Int, total: Int, offset: Int) -> Range<Int>? {
        guard length > 0, visible > 0, total > visible else { return nil }
        let size = min(length, max(1, (length * visible + total / 2) / total))
        let scrollable = total - visible
        let offset = max(0, min(offset, scrollable))
        // Rounded, but only the very top and the very bottom touch the ends.
        var start = ((length - size) * offset + scrollable / 2) / scrollable
        if offset > 0 { start = max(start, 1) }
        if offset < scrollable { start = min(start, length - size - 1) }
        start = max(0, min(start, length - size))
        return start..<(start + size)
    }

    /// Draws the track and thumb in column `x` over `rows` of `surface`; nothing when
    /// everything fits. True if it drew.
    @discardableResult
    public static func draw(
        in surface: inout Surface, x: Int, rows: Range<Int>, visible: Int, total: Int, offset: Int, base: Style = .plain
    ) -> Bool {
        guard let thumb = thumb(length: rows.count, visible: visible, total: total, offset: offset) else { return false }
        var trackStyle = base
        trackStyle.attributes = [.dim]
        var thumbStyle = base
        thumbStyle.attributes = []
        for (i, y) in rows.enumerated() {
            let on = thumb.contains(i)
            surface.put(on ? Self.thumb : Self.track, at: Point(x: x, y: y), style: on ? thumbStyle : trackStyle)
        }
        return true
    }
}
