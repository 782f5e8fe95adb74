// Geometry in terminal cells. Everything on screen is a whole number of cells, so
// coordinates are integers: layout results (which the solver computes in Double)
// are rounded once, where they become frames, and never drift afterwards.

/// A position in cells; x grows to the right, y grows downwards.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
    public static let zero = Point(x: 0, y: 0)
    public var description: String { "(\(x), \(y))" }

    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
}

/// A size in cells. Negative sizes are clamped to zero by `Rect`, never stored there.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(width)×\(height)" }

    /// The columns and rows a screen may have, wherever its size comes from (a scene, the
    /// command line, the control endpoint, the terminal): a screen is one surface the
    /// compositor allocates whole, and frames carry sizes as UInt16, so a size from
    /// outside must be bounded before it becomes a surface.
    public static let screenSides: ClosedRange<Int> = 1...1000

    /// Whether a screen may be this size (`screenSides` both ways).
    public var isScreenSize: Bool { Self.screenSides.contains(width) && Self.screenSides.contains(height) }

    /// The most cells a surface may have when its size comes from another process (a
    /// frame, a size transition): four of the largest screens. A child's viewport may be
    /// larger than the screen (a row of pages), but one message must not make a process
    /// allocate without bound: a 65535×65535 frame of no cells asked for 4 billion.
    public static let surfaceCells = 4 * screenSides.upperBound * screenSides.upperBound

    /// Whether a surface may be this size (`surfaceCells`; neither side negative).
    public var isSurfaceSize: Bool { width >= 0 && height >= 0 && width * height <= Self.surfaceCells }
}

/// A rectangle of cells: `origin` is its top-left cell, `size` how many cells it spans.
/// The cell at `maxX`/`maxY` is just outside it (half-open, as ranges are).
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = Size(width: max(0, size.width), height: max(0, size.height))
    }
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Int { origin.x }
    public var minY: Int { origin.y }
    public var maxX: Int { origin.x + size.width }
    public var maxY: Int { origin.y + size.height }
    public var width: Int { size.width }
    public var height: Int { size.height }
    public var isEmpty: Bool { size.width == 0 || size.height == 0 }
    public var center: Point { Point(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }

    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// The cells both rectangles cover; `.zero`-sized (at the clamped origin) when they do not meet.
    public func intersection(_ other: Rect) -> Rect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    public func intersects(_ other: Rect) -> Bool { !intersection(other).isEmpty }

    /// True when every cell of `other` is one of this rectangle's; an empty `other` is
    /// covered by anything.
    public func covers(_ other: Rect) -> Bool {
        other.isEmpty || (minX <= other.minX && minY <= other.minY && maxX >= other.maxX && maxY >= other.maxY)
    }

    /// The smallest rectangle covering both; an empty rectangle adds nothing.
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    public func offsetBy(dx: Int, dy: Int) -> Rect {
        Rect(origin: Point(x: origin.x + dx, y: origin.y + dy), size: size)
    }

    /// Shrinks by `insets` on each side (a border of one cell is `EdgeInsets(all: 1)`).
    public func inset(by insets: EdgeInsets) -> Rect {
        Rect(
            x: minX + insets.left, y: minY + insets.top,
            width: width - insets.left - insets.right, height: height - insets.top - insets.bottom)
    }

    public var description: String { "\(origin) \(size)" }
}

/// Distances in cells from each edge inwards.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Int, left: Int, bottom: Int, right: Int
    public init(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
    public init(all: Int) { self.init(top: all, left: all, bottom: all, right: all) }
    public static let zero = EdgeInsets()
}
