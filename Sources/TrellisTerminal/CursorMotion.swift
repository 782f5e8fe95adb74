// Moving the terminal's cursor in the fewest bytes. CUP (row;col H) goes anywhere but
// costs up to ten bytes on a large screen; short relative moves (BS, CR, CR LF, CUF n)
// cost one to five. Every candidate is costed, the cheapest written.
//
// LF is only ever written right after CR: with OPOST on (a terminal left in cooked mode)
// the tty turns LF into CR LF, and after a CR both mean the same. After the last column
// is written the cursor's column is unknown (terminals disagree about the pending wrap),
// so only moves that begin with CR or are absolute are used from there.

/// Where the writer believes the terminal's cursor is; nil where it does not know.
struct CursorPosition: Equatable, Sendable {
    var x: Int?
    var y: Int?

    static let unknown = CursorPosition(x: nil, y: nil)
}

enum CursorMotion {
    /// Bytes of the cheapest move from `from` to (x, y) using escape sequences and control
    /// characters only (the writer compares this with rewriting cells it already shows).
    static func cost(from: CursorPosition, x: Int, y: Int) -> Int {
        plan(from: from, x: x, y: y).cost
    }

    /// Appends the cheapest move from `from` to (x, y).
    static func append(from: CursorPosition, x: Int, y: Int, to out: inout [UInt8]) {
        let chosen = plan(from: from, x: x, y: y)
        switch chosen.route {
        case .none:
            break
        case .absolute:
            appendCUP(x: x, y: y, to: &out)
        case .relative:
            appendVertical(from: from.y!, to: y, afterCR: false, to: &out)
            appendHorizontal(from: from.x!, to: x, to: &out)
        case .fromLineStart:
            out.append(0x0D)
            appendVertical(from: from.y!, to: y, afterCR: true, to: &out)
            appendHorizontal(from: 0, to: x, to: &out)
        }
    }

    private enum Route { case none, absolute, relative, fromLineStart }

    private static func plan(from: CursorPosition, x: Int, y: Int) -> (route: Route, cost: Int) {
        if from.x == x && from.y == y { return (.none, 0) }
        var best = (route: Route.absolute, cost: cupCost(x: x, y: y))
        guard let cy = from.y else { return best }
        if let cx = from.x {
            let relative = verticalCost(from: cy, to: y, afterCR: false) + horizontalCost(from: cx, to: x)
            if relative < best.cost { best = (.relative, relative) }
        }
        let fromLineStart = 1 + verticalCost(from: cy, to: y, afterCR: true) + horizontalCost(from: 0, to: x)
        if fromLineStart < best.cost { best = (.fromLineStart, fromLineStart) }
        return best
    }

    // MARK: Absolute: CUP

    private static func cupCost(x: Int, y: Int) -> Int {
        if x == 0 { return y == 0 ? 3 : 3 + decimalDigits(y + 1) }
        return 4 + decimalDigits(y + 1) + decimalDigits(x + 1)
    }

    /// CSI row;col H, with the parts that are 1 left out.
    static func appendCUP(x: Int, y: Int, to out: inout [UInt8]) {
        out.appendCSI()
        if x == 0 {
            if y > 0 { out.appendDecimal(y + 1) }
        } else {
            out.appendDecimal(y + 1)
            out.append(UInt8(ascii: ";"))
            out.appendDecimal(x + 1)
        }
        out.append(UInt8(ascii: "H"))
    }

    // MARK: Vertical: LF (after CR), CUD, CUU, VPA

    private static func verticalCost(from cy: Int, to y: Int, afterCR: Bool) -> Int {
        if y == cy { return 0 }
        let n = abs(y - cy)
        let step = n == 1 ? 3 : 3 + decimalDigits(n)
        let vpa = 3 + decimalDigits(y + 1)
        var cost = min(step, vpa)
        if afterCR && y > cy { cost = min(cost, n) }
        return cost
    }

    private static func appendVertical(from cy: Int, to y: Int, afterCR: Bool, to out: inout [UInt8]) {
        if y == cy { return }
        let n = abs(y - cy)
        let step = n == 1 ? 3 : 3 + decimalDigits(n)
        let vpa = 3 + decimalDigits(y + 1)
        if afterCR && y > cy && n <= min(step, vpa) {
            for _ in 0..<n { out.append(0x0A) }
        } else if step <= vpa {
            appendStep(n, final: y > cy ? "B" : "A", to: &out)
        } else {
            out.appendCSI()
            out.appendDecimal(y + 1)
            out.append(UInt8(ascii: "d"))
        }
    }

    // MARK: Horizontal: CR, BS, CUF, CUB, CHA

    private static func horizontalCost(from cx: Int, to x: Int) -> Int {
        if x == cx { return 0 }
        if x == 0 { return 1 }
        let n = abs(x - cx)
        let step = n == 1 ? 3 : 3 + decimalDigits(n)
        let cha = 3 + decimalDigits(x + 1)
        return min(x < cx ? min(n, step) : step, cha)
    }

    private static func appendHorizontal(from cx: Int, to x: Int, to out: inout [UInt8]) {
        if x == cx { return }
        if x == 0 {
            out.append(0x0D)
            return
        }
        let n = abs(x - cx)
        let step = n == 1 ? 3 : 3 + decimalDigits(n)
        let cha = 3 + decimalDigits(x + 1)
        if x < cx && n <= min(step, cha) {
            for _ in 0..<n { out.append(0x08) }
        } else if step <= cha {
            appendStep(n, final: x > cx ? "C" : "D", to: &out)
        } else {
            out.appendCSI()
            out.appendDecimal(x + 1)
            out.append(UInt8(ascii: "G"))
        }
    }

    /// CSI n final, with n left out when it is 1.
    private static func appendStep(_ n: Int, final: Unicode.Scalar, to out: inout [UInt8]) {
        out.appendCSI()
        if n != 1 { out.appendDecimal(n) }
        out.append(UInt8(final.value))
    }
}
