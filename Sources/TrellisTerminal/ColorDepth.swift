import TrellisWire

/// How many colours a terminal shows, which decides how `ScreenWriter` writes a cell's
/// colours: `.trueColor` as 38;2;r;g;b, `.ansi256` as 38;5;n (RGB taken to the nearest of
/// the 6×6×6 cube and the gray ramp), `.ansi16` as 30–37/90–97, and `.none` not at all
/// (NO_COLOR: attributes such as bold and reverse are still written, they are not colour).
public enum ColorDepth: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case none
    case ansi16
    case ansi256
    case trueColor

    public var description: String {
        switch self {
        case .none: "none"
        case .ansi16: "ansi16"
        case .ansi256: "ansi256"
        case .trueColor: "truecolor"
        }
    }

    /// The depth the environment announces: NO_COLOR (any non-empty value) wins, then
    /// COLORTERM=truecolor|24bit, then TERM (`dumb`: none, `*-direct`: true colour,
    /// `*256color*`: 256); anything else gets the 16 colours every terminal has.
    public static func detect(environment: [String: String]) -> ColorDepth {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        let term = environment["TERM"] ?? ""
        if term == "dumb" { return .none }
        if term.hasSuffix("-direct") { return .trueColor }
        if term.contains("256color") { return .ansi256 }
        return .ansi16
    }

    /// `color` as this depth can show it: `.default`, `.indexed` below 16 for `.ansi16`,
    /// `.indexed` for `.ansi256`, unchanged for `.trueColor`.
    public func map(_ color: CellColor) -> CellColor {
        // By the colour first, then the depth: a switch over the pair of them looked up
        // the pair's type metadata on every call, which the writer makes per style change.
        switch color {
        case .default:
            return color
        case .indexed(let n):
            switch self {
            case .none: return .default
            case .ansi256, .trueColor: return color
            case .ansi16:
                guard n >= 16 else { return color }
                let (r, g, b) = Palette.rgb(of: n)
                return .indexed(Palette.nearest16(Int(r), Int(g), Int(b)))
            }
        case let .rgb(r, g, b):
            switch self {
            case .none: return .default
            case .trueColor: return color
            case .ansi256: return .indexed(Palette.nearest256(r, g, b))
            case .ansi16: return .indexed(Palette.nearest16(Int(r), Int(g), Int(b)))
            }
        }
    }
}

/// xterm's default palette, which is what "nearest" means when a colour must be reduced:
/// terminals differ in their first 16 colours, but the cube and gray ramp are standard.
enum Palette {
    /// The six levels of each component in the 6×6×6 cube (indices 16–231).
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    static let ansi16: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
        (255, 255, 255),
    ]

    static func rgb(of index: UInt8) -> (Int, Int, Int) {
        let n = Int(index)
        if n < 16 { return ansi16[n] }
        if n >= 232 {
            let v = 8 + 10 * (n - 232)
            return (v, v, v)
        }
        let c = n - 16
        return (cubeLevels[c / 36], cubeLevels[c / 6 % 6], cubeLevels[c % 6])
    }

    /// The cube entry or gray nearest to (r, g, b), whichever is closer. Never 0–15: their
    /// values are the user's theme, not a standard.
    static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let (ri, gi, bi) = (cubeStep(Int(r)), cubeStep(Int(g)), cubeStep(Int(b)))
        let cube = (cubeLevels[ri], cubeLevels[gi], cubeLevels[bi])
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let grayStep = min(23, max(0, (average - 3) / 10))
        let grayLevel = 8 + 10 * grayStep
        let target = (Int(r), Int(g), Int(b))
        if distance(target, (grayLevel, grayLevel, grayLevel)) < distance(target, cube) {
            return UInt8(232 + grayStep)
        }
        return UInt8(16 + 36 * ri + 6 * gi + bi)
    }

    static func nearest16(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        let target = (r, g, b)
        var best = 0
        var bestDistance = Int.max
        for (i, entry) in ansi16.enumerated() {
            let d = distance(target, entry)
            if d < bestDistance {
                best = i
                bestDistance = d
            }
        }
        return UInt8(best)
    }

    /// The cube level nearest to `v`: the midpoints between 0, 95, 135, … are 48, 115, 155, …
    private static func cubeStep(_ v: Int) -> Int {
        v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40
    }

    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let (dr, dg, db) = (a.0 - b.0, a.1 - b.1, a.2 - b.2)
        return dr * dr + dg * dg + db * db
    }
}
