/// The cells of a surface that changed since its damage was last taken
/// (`Surface.takeDamage()`), per row as sorted, disjoint, non-adjacent column spans, each
/// holding whole wide characters: what a composed screen hands the terminal's writer with
/// it, so that the writer encodes these cells and compares none (docs/TERMINAL.md).
public struct SurfaceDamage: Sendable, Equatable {
    /// The size of the surface the damage is of.
    public let size: Size
    /// Per row, the changed columns.
    public private(set) var rows: [[Range<Int>]]
    /// How many cells the spans cover.
    public private(set) var cellCount: Int

    /// No damage.
    public init(size: Size) {
        self.size = size
        rows = Array(repeating: [], count: size.height)
        cellCount = 0
    }

    /// Every cell: a surface of a new size, or one whose receiver lost its copy.
    public static func all(_ size: Size) -> SurfaceDamage {
        var damage = SurfaceDamage(size: size)
        guard size.width > 0 else { return damage }
        damage.rows = Array(repeating: [0..<size.width], count: size.height)
        damage.cellCount = size.width * size.height
        return damage
    }

    /// Damage at `rows`: one list of spans per row of `size`, each sorted, disjoint,
    /// non-adjacent and within the width.
    public init(size: Size, rows: [[Range<Int>]]) {
        precondition(rows.count == size.height, "\(rows.count) rows of damage for a \(size) surface")
        precondition(
            rows.allSatisfy { spans in
                zip(spans, spans.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }
                    && spans.allSatisfy { !$0.isEmpty && $0.lowerBound >= 0 && $0.upperBound <= size.width }
            }, "damage spans out of order or outside a \(size) surface")
        self.init(size: size, spans: rows)
    }

    /// `init(size:rows:)` unchecked: for `Surface.takeDamage()`, whose spans are so.
    init(size: Size, spans rows: [[Range<Int>]]) {
        self.size = size
        self.rows = rows
        cellCount = rows.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
    }

    public var isEmpty: Bool { cellCount == 0 }

    /// Adds the damage of a screen composed after the one this is of, for a receiver that
    /// shows only the later screen (the terminal's output coalescing screens): every cell
    /// either changed is in the result. Of another size, the later screen is all damage.
    public mutating func formUnion(_ later: SurfaceDamage) {
        guard later.size == size else {
            self = .all(later.size)
            return
        }
        for y in rows.indices where !later.rows[y].isEmpty {
            rows[y] = Self.merged(rows[y], later.rows[y])
        }
        cellCount = rows.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
    }

    /// Two sorted span lists as one, overlapping or touching spans joined.
    private static func merged(_ a: [Range<Int>], _ b: [Range<Int>]) -> [Range<Int>] {
        guard !a.isEmpty else { return b }
        var out: [Range<Int>] = []
        out.reserveCapacity(a.count + b.count)
        for span in (a + b).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, span.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                out.append(span)
            }
        }
        return out
    }
}
