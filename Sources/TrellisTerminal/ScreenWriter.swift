import TrellisCanvas
import TrellisWire

/// Turns composed screens into the bytes that make a terminal show them.
///
/// The writer keeps no copy of the terminal's cells: each screen comes with its damage,
/// the cells that changed since the screen before it (`Surface.takeDamage()`, merged over
/// screens that were never written), and `frame(_:damage:cursor:)` writes exactly those.
/// It keeps where the terminal's cursor is and its SGR state:
///
/// - a wide character is written whole when either of its cells is damaged, and never
///   half of one is left on the terminal (writing over half of a wide character makes a
///   terminal blank the other half, and that half changed too, so it is damaged);
/// - the cursor goes to each damaged span by the cheapest of CUP, relative moves and
///   rewriting the few cells in between (when they are already in the pen);
/// - SGR is written only where the style changes, as the shorter of reset-and-set and
///   the incremental change; colours are reduced to `depth` (see `ColorDepth`);
/// - the frame is one buffer inside synchronized-update brackets (CSI ? 2026 h … l), so a
///   terminal that knows mode 2026 shows it at once, and one that does not ignores them;
/// - when nothing is damaged (and the cursor request is the same) the frame is empty.
///
/// The cursor is hidden (CSI ? 25 l) while drawing. After a frame it is where `cursor`
/// asked, and visible, or, when `cursor` is nil, hidden at an unspecified place.
///
/// The first frame, and the first after `resize(to:)` or `invalidate()` (the writer is
/// out of sync: it does not know what the terminal shows), is a `fullRedraw(_:cursor:)`,
/// as is any frame whose damage would take more bytes than redrawing everything, and any
/// frame whose damage covers all but one cell in 64 or fewer (its encoding is the redraw
/// but for a few bytes).
public struct ScreenWriter: Sendable {
    public let depth: ColorDepth
    public private(set) var size: Size
    /// False before the first frame and after `resize(to:)` or `invalidate()`: the writer
    /// does not know what the terminal shows, and the next frame redraws everything.
    public private(set) var isInSync = false

    private var state = TerminalState()

    public init(size: Size, depth: ColorDepth) {
        self.size = size
        self.depth = depth
    }

    /// The bytes that take the terminal from the screen of the last frame to `next`, whose
    /// cells in `damage` are the ones that differ, with the cursor shown at `cursor`
    /// (screen coordinates) or hidden when nil; empty when nothing changed. A `next` of
    /// another size is taken as a resize: everything is redrawn.
    public mutating func frame(_ next: Surface, damage: SurfaceDamage, cursor: Point? = nil) -> [UInt8] {
        if next.size != size { resize(to: next.size) }
        // (Nearly) every cell changed (a page, a tab switch that repaints all): the
        // damage's encoding is the redraw, give or take the few bytes of its start and of
        // the few cells left as they were. "Few" is one in 64 at most (187 of a 200×60
        // screen): a spinner or a few labels that stayed are no reason to encode the
        // screen twice.
        let cells = size.width * size.height
        guard isInSync, damage.size == size, damage.cellCount < cells - cells / 64 else {
            return fullRedraw(next, cursor: cursor)
        }
        var encoder = startFrame()
        let screen = next.rowMajorCells
        screen.withUnsafeBufferPointer { encoder.encodeDamage($0, damage) }
        if encoder.bodyCount == 0 && cursor == state.cursorRequest && state.cursorVisible == (cursor != nil) {
            return []
        }
        // Past one byte per cell, redrawing everything may be the shorter way.
        if encoder.bodyCount > cells {
            var full = startFrame()
            full.encodeFullRedraw(screen, height: size.height)
            if full.bodyCount < encoder.bodyCount { encoder = full }
        }
        return finish(encoder, cursor: cursor)
    }

    /// The bytes that show `next` on a terminal in any state: SGR reset, home, erase the
    /// display, then every glyph that is not a blank in the plain style. Used for the
    /// first frame, after a resize, and after `invalidate()`.
    public mutating func fullRedraw(_ next: Surface, cursor: Point? = nil) -> [UInt8] {
        if next.size != size { resize(to: next.size) }
        var encoder = startFrame()
        encoder.encodeFullRedraw(next.rowMajorCells, height: size.height)
        return finish(encoder, cursor: cursor)
    }

    /// The terminal is now `newSize`. Terminals reflow or clear on resize in their own
    /// ways, so the writer forgets what is shown and the next frame redraws everything.
    public mutating func resize(to newSize: Size) {
        size = newSize
        invalidate()
    }

    /// Forgets what the terminal shows, where its cursor is and its SGR state, after
    /// something else wrote to it (a shell after suspend, a failed or partial write).
    public mutating func invalidate() {
        isInSync = false
        state = TerminalState()
    }

    /// An encoder whose bytes start with the frame's opening — the synchronized update
    /// begun, the cursor hidden unless known hidden — so that the body is encoded straight
    /// into the frame, not copied into it (22 KB a frame when every cell changes).
    private func startFrame() -> FrameEncoder {
        var encoder = FrameEncoder(width: size.width, depth: depth, state: state)
        encoder.body.appendASCII("\u{1B}[?2026h")
        if state.cursorVisible != false { encoder.body.appendASCII("\u{1B}[?25l") }
        encoder.bodyStart = encoder.body.count
        return encoder
    }

    /// Ends the frame `startFrame` began: the cursor handling and the synchronized update's
    /// end; takes on the state the terminal will have after it.
    private mutating func finish(_ encoder: consuming FrameEncoder, cursor: Point?) -> [UInt8] {
        if let cursor {
            let x = min(max(cursor.x, 0), max(size.width - 1, 0))
            let y = min(max(cursor.y, 0), max(size.height - 1, 0))
            CursorMotion.append(from: encoder.state.cursor, x: x, y: y, to: &encoder.body)
            encoder.state.cursor = CursorPosition(x: x, y: y)
            encoder.body.appendASCII("\u{1B}[?25h")
        }
        encoder.body.appendASCII("\u{1B}[?2026l")
        state = encoder.state
        state.cursorVisible = cursor != nil
        state.cursorRequest = cursor
        isInSync = true
        return encoder.body
    }
}

/// What the writer believes about the terminal besides its cells.
struct TerminalState: Sendable {
    var cursor = CursorPosition.unknown
    /// nil: unknown, so the next SGR is a full reset-and-set.
    var pen: Pen?
    /// nil: unknown, so the next frame hides it.
    var cursorVisible: Bool?
    var cursorRequest: Point?
}

/// Encodes one frame's body (after the opening `ScreenWriter.startFrame` put in `body`):
/// cursor moves, SGR and glyphs, tracking the terminal's state as it goes.
struct FrameEncoder {
    let width: Int
    let depth: ColorDepth
    var state: TerminalState
    var body: [UInt8] = []
    /// Where the body starts in `body`, after the frame's opening.
    var bodyStart = 0
    /// The style bits (`StyleBits`) of the cell the pen was last set from, while
    /// `state.pen` is that cell's pen; nil when not known. A cell with the same bits needs
    /// no pen of its own: no `Pen` to work out and compare, a glyph's byte to write.
    var penBits: StyleBits?

    /// Bytes of the body alone.
    var bodyCount: Int { body.count - bodyStart }

    /// Unchanged cells the cursor may be moved over by rewriting them: beyond this the
    /// escape sequences (at most CSI nnn C) are always shorter.
    static let maxOverwrite = 6

    init(width: Int, depth: ColorDepth, state: TerminalState) {
        self.width = width
        self.depth = depth
        self.state = state
    }

    /// Writes every glyph that has a cell in `damage`, row by row, left to right: a span
    /// that starts on the second cell of a wide character starts at its first, and one
    /// that ends on the first cell of one writes it whole.
    ///
    /// Where the cursor already is, cells of printable ASCII in the pen's own style
    /// (`penBits`) are written a byte each in a loop of their own: most of a tab's new
    /// text, and the same bytes the per-glyph step writes for them. Runs of plain blanks
    /// are erased rather than written where that is shorter (`writeBlanks`).
    mutating func encodeDamage(_ cells: UnsafeBufferPointer<Cell>, _ damage: SurfaceDamage) {
        let bits = StyleBits.Reader(cells)
        let plain = withUnsafePointer(to: Cell()) { StyleBits.Reader(UnsafeBufferPointer(start: $0, count: 1))(0) }
        for y in damage.rows.indices where !damage.rows[y].isEmpty {
            let rowStart = y * width
            var written = 0  // the columns before this are written
            for span in damage.rows[y] {
                var x = max(span.lowerBound, written)
                if x > 0, x < width, cells[rowStart + x].scalar == Cell.continuation, x - 1 >= written { x -= 1 }
                let end = min(span.upperBound, width)
                while x < end {
                    if let style = penBits, state.cursor.y == y, state.cursor.x == x {
                        var k = x
                        while k < end {
                            let i = rowStart &+ k
                            let scalar = cells[i].scalar
                            guard scalar >= 0x20 && scalar < 0x7F, bits(i) == style,
                                k &+ 1 == width || cells[i &+ 1].scalar != Cell.continuation,
                                scalar != 0x20 || style != plain  // plain blanks: `writeBlanks`
                            else { break }
                            body.append(UInt8(truncatingIfNeeded: scalar))
                            k &+= 1
                        }
                        if k > x {
                            // After the last column the cursor waits for a wrap (see `writeGlyph`).
                            state.cursor.x = k < width ? k : nil
                            x = k
                            continue
                        }
                    }
                    let glyph = Self.span(cells, rowStart + x, x: x, width: width)
                    moveCursor(cells, rowStart: rowStart, x: x, y: y)
                    if let next = writeBlanks(
                        cells, rowStart: rowStart, x: x, end: end, spans: damage.rows[y], bits: bits, plain: plain) {
                        x = next
                        continue
                    }
                    writeGlyph(cells, rowStart + x, x: x, span: glyph, bits: bits(rowStart + x))
                    x += glyph
                }
                written = max(written, x)
            }
        }
    }

    /// Reset, home, erase, then everything but plain blanks. One pass that works out a
    /// cell's pen only where its style differs from the last one written and moves the
    /// cursor only where a skipped blank left it behind: with every cell written, this
    /// is the whole cost of a frame that changed every cell (`trellis bench compose`).
    ///
    /// Styles are compared as `StyleBits`, and a change of style is worked out once per
    /// pair of styles in the frame (`PenTransitions`), then copied. Pens and glyphs go
    /// through a `ByteCursor` on the stack, copied into `body` a few kilobytes at a time
    /// and before each cursor move (which writes to `body`).
    mutating func encodeFullRedraw(_ cells: [Cell], height: Int) {
        // Room for a glyph and a colour change every few cells, so that a screen of
        // many colours is not copied to a larger buffer as it grows.
        body.reserveCapacity(body.count + width * height * 2 + 64)
        body.appendASCII("\u{1B}[m\u{1B}[H\u{1B}[2J")
        state.pen = .plain
        penBits = nil
        state.cursor = CursorPosition(x: 0, y: 0)
        cells.withUnsafeBufferPointer { cells in
            withUnsafeTemporaryAllocation(of: PenTransitions.Entry.self, capacity: PenTransitions.slots) { slots in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.chunkBytes) { memory in
                    encodeFullRedraw(cells, height: height, transitions: PenTransitions(slots), out: ByteCursor(memory))
                }
            }
        }
    }

    private mutating func encodeFullRedraw(
        _ cells: UnsafeBufferPointer<Cell>, height: Int, transitions: PenTransitions, out: consuming ByteCursor
    ) {
        let bits = StyleBits.Reader(cells)
        // The style the pen was last set from (the plain pen at first), as bits. Equal
        // bits are the same style; different bits are taken as a change of style, which
        // writes nothing when the pen stays the same.
        var styledBits = withUnsafePointer(to: Cell()) { StyleBits.Reader(UnsafeBufferPointer(start: $0, count: 1))(0) }
        var penIsPlain = true
        var cursorX = 0, cursorY = 0
        for y in 0..<height {
            let rowStart = y * width
            var x = 0
            while x < width {
                // Where the cursor is already: the cells a byte each in the pen the
                // terminal has, most of a screen, in a loop of their own.
                if cursorX == x && cursorY == y {
                    let n = Self.appendRun(
                        cells, rowStart: rowStart, from: x, width: width, bits: bits, style: styledBits,
                        skippingBlanks: penIsPlain, to: &out)
                    if n > 0 {
                        x += n
                        cursorX = x < width ? x : -1
                        continue
                    }
                }
                let i = rowStart + x
                let cell = cells[i]
                let span = Self.span(cells, i, x: x, width: width)
                let cellBits = bits(i)
                // A change of style: kept from earlier in the frame, or its pen to work out.
                var kept: PenTransitions.Entry?
                var pen: Pen?
                var nextIsPlain = penIsPlain
                if cellBits != styledBits {
                    kept = transitions.find(from: styledBits, to: cellBits)
                    if let kept {
                        nextIsPlain = kept.penIsPlain
                    } else {
                        pen = Pen(cell, depth: depth)
                        nextIsPlain = pen == .plain
                    }
                }
                if span == 1 && cell.scalar == 0x20 && nextIsPlain {
                    x += 1
                    continue
                }
                // The cursor's column is kept here, -1 where unknown, and in `state` only
                // around a move, which reads and sets it there.
                if cursorX != x || cursorY != y {
                    body.append(contentsOf: out.written)
                    out.removeAll()
                    state.cursor = CursorPosition(x: cursorX >= 0 ? cursorX : nil, y: cursorY)
                    moveCursor(cells, rowStart: rowStart, x: x, y: y)
                    cursorX = state.cursor.x ?? -1
                    cursorY = state.cursor.y ?? -1
                }
                if out.room < Self.maxCellBytes {
                    body.append(contentsOf: out.written)
                    out.removeAll()
                }
                if let kept {
                    out.append(kept.bytes, count: kept.count)
                    state.pen = kept.pen
                    penBits = cellBits
                } else if let pen {
                    let start = out.count
                    pen.appendTransition(from: state.pen, to: &out)
                    transitions.keep(from: styledBits, to: cellBits, pen: pen, bytes: out.written(since: start))
                    state.pen = pen
                    penBits = cellBits
                }
                styledBits = cellBits
                penIsPlain = nextIsPlain
                if span == 1 && cell.scalar >= 0x20 && cell.scalar < 0x7F {
                    // Printable ASCII, most of any screen: one byte, one column.
                    out.append(UInt8(truncatingIfNeeded: cell.scalar))
                } else {
                    Self.appendGlyph(cell.scalar, span: span, to: &out)
                }
                // After the last column the cursor waits for a wrap (see `writeGlyph`).
                cursorX = x + span < width ? x + span : -1
                x += span
            }
        }
        body.append(contentsOf: out.written)
        state.cursor = CursorPosition(x: cursorX >= 0 ? cursorX : nil, y: cursorY)
    }

    /// From column x of the row at `rowStart`, the cells in the style whose bits are
    /// `style` (the pen the terminal has) that are printable ASCII, one column each — not
    /// the lead of a wide pair, and not a blank when `skippingBlanks` (in the plain pen, a
    /// redraw leaves blanks to the erase) — written a byte each, as many as `out` has room
    /// for; how many. For `encodeFullRedraw`, whose per-cell step this is for these cells,
    /// without its pen, cursor and room checks.
    private static func appendRun(
        _ cells: UnsafeBufferPointer<Cell>, rowStart: Int, from x: Int, width: Int, bits: StyleBits.Reader,
        style: StyleBits, skippingBlanks: Bool, to out: inout ByteCursor
    ) -> Int {
        let lowest: UInt32 = skippingBlanks ? 0x21 : 0x20
        let end = min(width, x + out.room)
        var k = x
        while k < end {
            let i = rowStart &+ k
            let scalar = cells[i].scalar
            guard scalar >= lowest && scalar < 0x7F, bits(i) == style,
                k &+ 1 == width || cells[i &+ 1].scalar != Cell.continuation
            else { break }
            out.append(UInt8(truncatingIfNeeded: scalar))
            k &+= 1
        }
        return k - x
    }

    /// At column x of the row at `rowStart`, where the cursor is, a run of plain blanks
    /// (the plain style's spaces, whose bits are `plain`), in the plain pen: erased
    /// rather than written a byte each where that is shorter, else written up to `end`.
    /// The run is the screen's, not the damage's: blanks it did not damage show blank
    /// already, and erasing them again changes nothing. Against the spaces of the run's
    /// damaged cells (`spans`, the row's damage), which writing it costs at least: EL (CSI
    /// K) when the run reaches the row's end and 3 or more are damaged; else ECH (CSI n X)
    /// when that and a move past it are shorter. The cursor stays at x. Returns where the
    /// row's writing goes on, or nil when the cell at x is not a plain blank. A tab switch
    /// blanks most of the old tab's text this way.
    private mutating func writeBlanks(
        _ cells: UnsafeBufferPointer<Cell>, rowStart: Int, x: Int, end: Int, spans: [Range<Int>], bits: StyleBits.Reader,
        plain: StyleBits
    ) -> Int? {
        func isPlainBlank(_ k: Int) -> Bool {
            let i = rowStart + k
            return cells[i].scalar == 0x20 && bits(i) == plain && (k + 1 == width || cells[i + 1].scalar != Cell.continuation)
        }
        guard isPlainBlank(x) else { return nil }
        var run = x + 1
        while run < width && isPlainBlank(run) { run += 1 }
        let count = run - x
        let damaged = spans.reduce(0) { $0 + max(0, min($1.upperBound, run) - max($1.lowerBound, x)) }
        let toLineEnd = run == width && damaged >= 3
        Pen.plain.appendTransition(from: state.pen, to: &body)
        state.pen = .plain
        penBits = plain
        guard toLineEnd || damaged > 2 * (3 + decimalDigits(count)) else {
            let stop = min(run, end)
            for _ in x..<stop { body.append(0x20) }
            // After the last column the cursor waits for a wrap (see `writeGlyph`).
            state.cursor.x = stop < width ? stop : nil
            return stop
        }
        body.appendCSI()
        if !toLineEnd { body.appendDecimal(count) }
        body.append(UInt8(ascii: toLineEnd ? "K" : "X"))
        return run
    }

    /// What `encodeFullRedraw` copies into `body` at a time.
    static let chunkBytes = 4096
    /// The most one cell adds there: its SGR (CSI, at most `Pen.maxParameterBytes`, m)
    /// and its glyph (at most four bytes of UTF-8 and a space).
    static let maxCellBytes = 2 + Pen.maxParameterBytes + 1 + 5

    /// 2 when the cell at `i` is the lead of a wide character (the next cell of the row is
    /// its continuation), else 1.
    private static func span(_ cells: UnsafeBufferPointer<Cell>, _ i: Int, x: Int, width: Int) -> Int {
        x + 1 < width && cells[i + 1].scalar == Cell.continuation && cells[i].scalar != Cell.continuation ? 2 : 1
    }

    /// Moves to (x, y): by rewriting the unchanged glyphs in between when that is shorter
    /// than any escape sequence, else by `CursorMotion`.
    private mutating func moveCursor(_ cells: UnsafeBufferPointer<Cell>, rowStart: Int, x: Int, y: Int) {
        let cursor = state.cursor
        if cursor.x == x && cursor.y == y { return }
        if cursor.y == y, let cx = cursor.x, cx < x, x - cx <= Self.maxOverwrite, let pen = state.pen {
            var bytes = 0
            var gx = cx
            while gx < x, bytes >= 0 {
                let i = rowStart + gx
                let span = Self.span(cells, i, x: gx, width: width)
                if Pen(cells[i], depth: depth) != pen {
                    bytes = -1
                } else {
                    bytes += Self.glyphBytes(cells[i].scalar, span: span)
                }
                gx += span
            }
            if bytes >= 0, gx == x, bytes < CursorMotion.cost(from: cursor, x: x, y: y) {
                gx = cx
                let bits = StyleBits.Reader(cells)
                while gx < x {
                    let span = Self.span(cells, rowStart + gx, x: gx, width: width)
                    writeGlyph(cells, rowStart + gx, x: gx, span: span, bits: bits(rowStart + gx))
                    gx += span
                }
                return
            }
        }
        CursorMotion.append(from: cursor, x: x, y: y, to: &body)
        state.cursor = CursorPosition(x: x, y: y)
    }

    /// Writes the glyph whose lead cell is `cells[i]`, whose style bits are `bits`, at
    /// column x, taking `span` columns.
    private mutating func writeGlyph(_ cells: UnsafeBufferPointer<Cell>, _ i: Int, x: Int, span: Int, bits: StyleBits) {
        let cell = cells[i]
        if bits != penBits {
            let pen = Pen(cell, depth: depth)
            pen.appendTransition(from: state.pen, to: &body)
            state.pen = pen
            penBits = bits
        }
        if span == 1 && cell.scalar >= 0x20 && cell.scalar < 0x7F {
            body.append(UInt8(truncatingIfNeeded: cell.scalar))
        } else {
            Self.appendGlyph(cell.scalar, span: span, to: &body)
        }
        // After the last column the cursor waits for a wrap that terminals handle
        // differently; the next move must not depend on its column.
        state.cursor.x = x + span < width ? x + span : nil
    }

    /// The glyph's bytes, made to take exactly `span` columns whatever the cell holds: a
    /// scalar that would take another width (a control character, a continuation marker
    /// out of place, a wide character without room) becomes spaces, so the cursor is
    /// always where the writer believes.
    private static func appendGlyph<Sink: ByteSink>(_ scalar: UInt32, span: Int, to out: inout Sink) {
        let columns = terminalColumns(scalar)
        if columns == span {
            out.appendUTF8(scalar)
        } else if columns == 1 {
            out.appendUTF8(scalar)
            out.append(0x20)
        } else {
            for _ in 0..<span { out.append(0x20) }
        }
    }

    private static func glyphBytes(_ scalar: UInt32, span: Int) -> Int {
        let columns = terminalColumns(scalar)
        if columns == span { return utf8Length(scalar) }
        return columns == 1 ? utf8Length(scalar) + 1 : span
    }

    /// Columns a terminal advances for `scalar`; 0 for anything that must not be written.
    private static func terminalColumns(_ scalar: UInt32) -> Int {
        if scalar < 0x300 { return scalar < 0x20 || (scalar >= 0x7F && scalar < 0xA0) ? 0 : 1 }
        return Unicode.Scalar(scalar).map { CharacterWidth.columns(of: $0) } ?? 0
    }
}
