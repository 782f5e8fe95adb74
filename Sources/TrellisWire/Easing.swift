/// The one easing of every declared animation: the compositor's interpolation and the
/// in-process window's (no compositor) both come here, so a slide has the same shape
/// wherever it is shown (issue 20).
extension Animation.Curve {
    /// How far along the motion is when `progress` (0…1) of the time has passed.
    public func eased(_ progress: Double) -> Double {
        let p = min(1, max(0, progress))
        return switch self {
        case .linear: p
        case .easeIn: p * p
        case .easeOut: 1 - (1 - p) * (1 - p)
        case .easeInOut: p * p * (3 - 2 * p)
        }
    }

    /// Where a rectangle moving from `from` to `to` is at `progress` of the time, each
    /// side rounded to the nearest cell.
    public func interpolate(from: CellRect, to: CellRect, progress: Double) -> CellRect {
        let e = eased(progress)
        func mix(_ a: Int, _ b: Int) -> Int { a + Int((Double(b - a) * e).rounded()) }
        return CellRect(
            x: Int32(mix(Int(from.x), Int(to.x))), y: Int32(mix(Int(from.y), Int(to.y))),
            width: UInt16(mix(Int(from.width), Int(to.width))), height: UInt16(mix(Int(from.height), Int(to.height))))
    }
}

extension Animation {
    /// Where the surface shows `elapsedNanoseconds` after the animation began (its delay
    /// included): `from` before the delay is over, `to` once the duration is.
    public func frame(elapsedNanoseconds elapsed: UInt64) -> CellRect {
        let delay = UInt64(delayMilliseconds) * 1_000_000
        let duration = UInt64(durationMilliseconds) * 1_000_000
        guard duration > 0 else { return elapsed < delay ? from : to }
        guard elapsed > delay else { return from }
        return curve.interpolate(from: from, to: to, progress: Double(elapsed - delay) / Double(duration))
    }

    /// From its start to its end, delay included, in nanoseconds.
    public var totalNanoseconds: UInt64 {
        (UInt64(delayMilliseconds) + UInt64(durationMilliseconds)) * 1_000_000
    }
}
