import TrellisWire

// The terminal's SGR state ("graphic rendition"): the colours and attributes the next
// character is drawn in. The writer keeps the pen the terminal has, so a run of cells in
// one style costs one SGR sequence, and a change costs the shorter of resetting and
// setting everything or switching only what differs.

/// Colours (already reduced to the writer's `ColorDepth`) and attributes.
struct Pen: Equatable, Sendable {
    var foreground: CellColor
    var background: CellColor
    var attributes: CellAttributes

    static let plain = Pen(foreground: .default, background: .default, attributes: [])

    /// The pen `cell` is drawn with at `depth`.
    init(_ cell: Cell, depth: ColorDepth) {
        switch depth {
        case .trueColor:
            foreground = cell.foreground
            background = cell.background
        default:
            foreground = depth.map(cell.foreground)
            background = depth.map(cell.background)
        }
        // `CellAttributes.known`, read here as a constant: a static of another module is
        // a call and a once-check, per cell of a diff.
        attributes = CellAttributes(rawValue: cell.attributes.rawValue & 0xFF)
    }

    init(foreground: CellColor, background: CellColor, attributes: CellAttributes) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// Attributes with their SGR on and off codes. Bold and dim share their off code (22).
    private static let codes: [(CellAttributes, on: Int, off: Int)] = [
        (.bold, 1, 22), (.dim, 2, 22), (.italic, 3, 23), (.underline, 4, 24),
        (.blink, 5, 25), (.reverse, 7, 27), (.invisible, 8, 28), (.strikethrough, 9, 29),
    ]

    /// Appends the SGR sequence that takes the terminal from `current` (nil: unknown) to
    /// this pen: nothing when they are equal, else the shorter of reset-and-set and the
    /// incremental change (reset-and-set on a tie: it also repairs a pen we mis-tracked).
    /// The two candidates are built on the stack: a frame that changes every cell changes
    /// pens thousands of times, and building them in arrays was most of its cost
    /// (`trellis bench compose`).
    func appendTransition<Sink: ByteSink>(from current: Pen?, to out: inout Sink) {
        if let current, current == self { return }
        if let current, attributes == current.attributes {
            appendColorTransition(from: current, to: &out)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * Self.maxParameterBytes) { memory in
            var reset = ByteCursor(UnsafeMutableBufferPointer(rebasing: memory[..<Self.maxParameterBytes]))
            appendResetParameters(to: &reset)
            var chosen = reset
            if let current {
                var incremental = ByteCursor(UnsafeMutableBufferPointer(rebasing: memory[Self.maxParameterBytes...]))
                appendChangeParameters(from: current, to: &incremental)
                if incremental.count < reset.count { chosen = incremental }
            }
            // CSI params m. Empty params (the plain pen) is CSI m, which means 0.
            out.appendCSI()
            for byte in chosen.written { out.append(byte) }
            out.append(UInt8(ascii: "m"))
        }
    }

    /// `appendTransition` where only colours change (most changes: a screen's colour runs):
    /// the two candidates' lengths are worked out without building either, and only the
    /// shorter written, straight into `out` — the same bytes as building both.
    private func appendColorTransition<Sink: ByteSink>(from current: Pen, to out: inout Sink) {
        let foregroundChanges = foreground != current.foreground
        let backgroundChanges = background != current.background
        let foregroundLength = Self.colorLength(foreground, base: 30)
        let backgroundLength = Self.colorLength(background, base: 40)
        // Parameters joined by ";": the colours that change.
        var incremental = -1
        if foregroundChanges { incremental += 1 + foregroundLength }
        if backgroundChanges { incremental += 1 + backgroundLength }
        // "0", each attribute's ";n", each colour that is not the default's ";…"; nothing
        // for the plain pen.
        var reset = 0
        if !(attributes.isEmpty && foreground == .default && background == .default) {
            reset = 1 + 2 * (attributes.rawValue & 0xFF).nonzeroBitCount  // the codes, a digit each
            if foreground != .default { reset += 1 + foregroundLength }
            if background != .default { reset += 1 + backgroundLength }
        }
        out.appendCSI()
        if incremental < reset {
            if foregroundChanges { Self.appendColorParameters(foreground, base: 30, to: &out) }
            if foregroundChanges && backgroundChanges { out.append(UInt8(ascii: ";")) }
            if backgroundChanges { Self.appendColorParameters(background, base: 40, to: &out) }
        } else if reset > 0 {
            out.append(UInt8(ascii: "0"))
            if !attributes.isEmpty {
                for (attribute, on, _) in Self.codes where attributes.contains(attribute) {
                    out.append(UInt8(ascii: ";"))
                    out.appendDecimal(on)
                }
            }
            if foreground != .default {
                out.append(UInt8(ascii: ";"))
                Self.appendColorParameters(foreground, base: 30, to: &out)
            }
            if background != .default {
                out.append(UInt8(ascii: ";"))
                Self.appendColorParameters(background, base: 40, to: &out)
            }
        }
        out.append(UInt8(ascii: "m"))
    }

    /// Bytes of `appendColorParameters(color, base:)`.
    private static func colorLength(_ color: CellColor, base: Int) -> Int {
        switch color {
        case .default: 2
        case .indexed(let n) where n < 8: 2
        case .indexed(let n) where n < 16: decimalDigits(base + 60)
        case .indexed(let n): 5 + decimalDigits(Int(n))
        case let .rgb(r, g, b): 7 + decimalDigits(Int(r)) + decimalDigits(Int(g)) + decimalDigits(Int(b))
        }
    }

    /// More than either candidate's parameters can take: "0", eight attributes and two
    /// 24-bit colours (51 bytes); 22, six other off codes, eight on codes, two colours (70).
    static let maxParameterBytes = 96

    private func appendResetParameters(to p: inout ByteCursor) {
        if attributes.isEmpty && foreground == .default && background == .default { return }
        p.append(UInt8(ascii: "0"))
        // Most pens have no attributes: the table is not walked for them.
        if !attributes.isEmpty {
            for (attribute, on, _) in Self.codes where attributes.contains(attribute) {
                Self.appendParameter(on, to: &p)
            }
        }
        if foreground != .default { Self.appendColor(foreground, base: 30, to: &p) }
        if background != .default { Self.appendColor(background, base: 40, to: &p) }
    }

    private func appendChangeParameters(from current: Pen, to p: inout ByteCursor) {
        // Most changes are of colours alone: no attribute sets to work out.
        if attributes != current.attributes {
            appendAttributeChanges(from: current, to: &p)
        }
        if foreground != current.foreground { Self.appendColor(foreground, base: 30, to: &p) }
        if background != current.background { Self.appendColor(background, base: 40, to: &p) }
    }

    private func appendAttributeChanges(from current: Pen, to p: inout ByteCursor) {
        let removed = current.attributes.subtracting(attributes)
        var added = attributes.subtracting(current.attributes)
        let boldOrDim: CellAttributes = [.bold, .dim]
        if !removed.isDisjoint(with: boldOrDim) {
            Self.appendParameter(22, to: &p)
            // 22 clears both, so whichever of the two stays must be set again.
            added.formUnion(attributes.intersection(boldOrDim))
        }
        if !removed.isEmpty {
            for (attribute, _, off) in Self.codes where off != 22 && removed.contains(attribute) {
                Self.appendParameter(off, to: &p)
            }
        }
        if !added.isEmpty {
            for (attribute, on, _) in Self.codes where added.contains(attribute) {
                Self.appendParameter(on, to: &p)
            }
        }
    }

    private static func appendParameter(_ n: Int, to p: inout ByteCursor) {
        if p.count > 0 { p.append(UInt8(ascii: ";")) }
        p.appendDecimal(n)
    }

    /// `base` is 30 for the foreground, 40 for the background: 39/49 default, 30–37/40–47
    /// and 90–97/100–107 for the first 16 colours (shorter than 38;5;n and read by every
    /// terminal), 38;5;n/48;5;n, 38;2;r;g;b/48;2;r;g;b.
    private static func appendColor(_ color: CellColor, base: Int, to p: inout ByteCursor) {
        if p.count > 0 { p.append(UInt8(ascii: ";")) }
        appendColorParameters(color, base: base, to: &p)
    }

    /// The colour's parameters, joined by ";", without one before them.
    private static func appendColorParameters<Sink: ByteSink>(_ color: CellColor, base: Int, to p: inout Sink) {
        switch color {
        case .default:
            p.appendDecimal(base + 9)
        case .indexed(let n) where n < 8:
            p.appendDecimal(base + Int(n))
        case .indexed(let n) where n < 16:
            p.appendDecimal(base + 60 + Int(n) - 8)
        case .indexed(let n):
            p.appendDecimal(base + 8)
            p.append(UInt8(ascii: ";"))
            p.append(UInt8(ascii: "5"))
            p.append(UInt8(ascii: ";"))
            p.appendDecimal(Int(n))
        case let .rgb(r, g, b):
            p.appendDecimal(base + 8)
            p.append(UInt8(ascii: ";"))
            p.append(UInt8(ascii: "2"))
            p.append(UInt8(ascii: ";"))
            p.appendDecimal(Int(r))
            p.append(UInt8(ascii: ";"))
            p.appendDecimal(Int(g))
            p.append(UInt8(ascii: ";"))
            p.appendDecimal(Int(b))
        }
    }
}
