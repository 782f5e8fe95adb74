import Testing
import TrellisWire

/// Issue 20: one easing for every declared animation, the compositor's and an in-process
/// window's (`Animation.Curve`).
@Suite struct EasingTests {
    @Test("each curve starts at 0, ends at 1 and never goes back")
    func curvesRunFromStartToEndWithoutGoingBack() {
        for curve in Animation.Curve.allCases {
            #expect(curve.eased(0) == 0 && curve.eased(1) == 1, "\(curve)")
            var last = 0.0
            for i in 0...100 {
                let e = curve.eased(Double(i) / 100)
                #expect(e >= last, "\(curve) goes back at \(i)%")
                last = e
            }
            // Time outside the animation is its start or its end.
            #expect(curve.eased(-1) == 0 && curve.eased(2) == 1)
        }
    }

    @Test("the curves have their documented shapes: ease-in-out is symmetric, ease-in slow first, ease-out slow last")
    func curvesHaveTheirShapes() {
        #expect(Animation.Curve.linear.eased(0.25) == 0.25)
        #expect(Animation.Curve.easeInOut.eased(0.5) == 0.5)
        #expect(abs(Animation.Curve.easeInOut.eased(0.2) + Animation.Curve.easeInOut.eased(0.8) - 1) < 1e-12)
        #expect(Animation.Curve.easeIn.eased(0.5) < 0.5 && Animation.Curve.easeOut.eased(0.5) > 0.5)
    }

    @Test("a declared animation is at from before its delay is over, at to once its duration is, eased between")
    func anAnimationsFrameFollowsItsTime() {
        let a = Animation(
            surface: "card", from: CellRect(x: 0, y: 20, width: 10, height: 5), to: CellRect(x: 0, y: 0, width: 10, height: 5),
            durationMilliseconds: 200, delayMilliseconds: 100, curve: .linear)
        #expect(a.frame(elapsedNanoseconds: 50_000_000) == a.from)
        #expect(a.frame(elapsedNanoseconds: 200_000_000) == CellRect(x: 0, y: 10, width: 10, height: 5))
        #expect(a.frame(elapsedNanoseconds: 300_000_000) == a.to)
        #expect(a.totalNanoseconds == 300_000_000)
    }
}
