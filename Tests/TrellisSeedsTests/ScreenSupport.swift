import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

/// Finding things on the composed screen by the text they show, as a person (or the
/// `trellis tap` of issue 5) does: tests tap what they read, not coordinates.
extension Window {
    /// The screen point of the first cell of the `occurrence`-th place (0 = first, top to
    /// bottom, left to right) where `text` shows. Wide characters count as one character
    /// and two columns, as on screen.
    func point(of text: String, occurrence: Int = 0) -> Point? {
        let screen = compose()
        let wanted = Array(text)
        guard !wanted.isEmpty else { return nil }
        var seen = 0
        for y in 0..<screen.size.height {
            // The row's characters with the column each starts at.
            var chars: [(x: Int, c: Character)] = []
            for x in 0..<screen.size.width {
                guard let cell = screen.cell(at: Point(x: x, y: y)), cell.scalar != Cell.continuation,
                      let u = Unicode.Scalar(cell.scalar) else { continue }
                chars.append((x, Character(u)))
            }
            guard chars.count >= wanted.count else { continue }
            for start in 0...(chars.count - wanted.count) where chars[start..<start + wanted.count].map(\.c) == wanted {
                if seen == occurrence { return Point(x: chars[start].x, y: y) }
                seen += 1
            }
        }
        return nil
    }

    /// Whether `text` shows anywhere on the screen.
    func shows(_ text: String) -> Bool { point(of: text) != nil }

    /// Taps the middle of the `occurrence`-th place `text` shows; false if it does not
    /// show or nothing handled the tap.
    @discardableResult
    func tap(_ text: String, occurrence: Int = 0) -> Bool {
        guard let p = point(of: text, occurrence: occurrence) else { return false }
        return tap(at: Point(x: p.x + CharacterWidth.columns(of: text) / 2, y: p.y))
    }

    /// A horizontal drag across the middle of the screen, as a finger turns a page.
    func drag(from a: Point, to b: Point) {
        touch(.began, at: a)
        touch(.moved, at: Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2))
        touch(.moved, at: b)
        touch(.ended, at: b)
    }

    /// Screen row `y`, trailing spaces trimmed.
    func row(_ y: Int) -> String {
        let lines = screenText.split(separator: "\n", omittingEmptySubsequences: false)
        return y < lines.count ? String(lines[y]) : ""
    }
}

/// A clock tests move by hand, so animations finish when the test says.
final class ManualClock {
    var seconds = 1000.0
    func install(on window: Window) { window.animator.now = { [unowned self] in self.seconds } }
    /// Moves time past any running slide and runs what completed.
    func finishAnimations(in window: Window) {
        seconds += 1
        window.tick()
    }
}
