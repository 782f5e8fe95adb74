import Foundation
import TrellisCanvas
import TrellisCompositor
import TrellisLog
import TrellisTerminal
import TrellisWire

/// The compose benchmark's scene and its measurement: 16 controllers' surfaces as the
/// compositor holds them, the frames their hosts send, and one frame's work timed.
///
/// Frames are made as hosts make them — by drawing into a surface and taking its damage
/// (`takeFrame`) — before the clock starts: making them is the hosts' work, in their own
/// processes. Each workload is a cycle of frames that ends where it began, so any number
/// of frames can be timed from one starting state.
struct ComposeScene {
    static let screen = Size(width: 200, height: 60)
    static let columns = 4, rows = 4
    static let tile = Size(width: screen.width / columns, height: screen.height / rows)
    static let surfaceCount = columns * rows
    static let depth = ColorDepth.ansi256
    /// A braille spinner, as terminal programs draw one: three bytes of UTF-8 a glyph.
    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// The tile whose spinner turns in the one-cell workload, and where in it.
    static let spinnerTile = 6
    static let spinnerAt = Point(x: 20, y: 7)

    /// The frames of one step: each host's frame, in the order they arrive.
    typealias Step = [(ControllerID, FrameUpdate)]

    let ids: [ControllerID] = (0..<surfaceCount).map { ControllerID($0 == 0 ? "Root" : "Tile\($0)")! }

    /// Every cell a character; colour runs of 6 cells in 7 colours. Patterns 0 and 1
    /// differ in every cell's character and in every run's colour.
    static func draw(_ surface: inout Surface, pattern: Int, tileIndex: Int) {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".unicodeScalars)
        for y in 0..<surface.size.height {
            var x = 0
            while x < surface.size.width {
                let run = min(6, surface.size.width - x)
                let colour = CellColor.indexed(UInt8(1 + (x / 6 + y + tileIndex + pattern) % 7))
                var text = String.UnicodeScalarView()
                for i in 0..<run { text.append(alphabet[(x + i + 3 * y + tileIndex + pattern) % alphabet.count]) }
                surface.put(String(text), at: Point(x: x, y: y), style: Style(foreground: colour))
                x += run
            }
        }
        if tileIndex == spinnerTile {
            surface.put(String(spinner[0]), at: spinnerAt, style: Style(foreground: .indexed(2), attributes: .bold))
        }
    }

    func surfaceSize(_ index: Int) -> Size { index == 0 ? Self.screen : Self.tile }

    /// Where tile `index` sits on the screen (the root's surface is the whole screen; its
    /// tile is the part of it no child covers).
    func placement(_ index: Int) -> Placement {
        let frame = Rect(
            x: (index % Self.columns) * Self.tile.width, y: (index / Self.columns) * Self.tile.height,
            width: Self.tile.width, height: Self.tile.height)
        return Placement(surface: ids[index], frame: CellRect(frame), z: 0, clip: CellRect(frame), visible: true)
    }

    /// The hosts' surfaces drawn in pattern 0, as the first frames take them.
    func hostSurfaces() -> [Surface] {
        (0..<Self.surfaceCount).map { i in
            var s = Surface(size: surfaceSize(i))
            Self.draw(&s, pattern: 0, tileIndex: i)
            return s
        }
    }

    /// One cell per frame: the spinner turns once a frame, through all its glyphs and back.
    func oneCellFrames() -> [Step] {
        var host = hostSurfaces()[Self.spinnerTile]
        _ = host.takeFrame(number: 0)
        var steps: [Step] = []
        for k in 1...Self.spinner.count {
            host.put(String(Self.spinner[k % Self.spinner.count]), at: Self.spinnerAt,
                     style: Style(foreground: .indexed(2), attributes: .bold))
            guard let f = host.takeFrame(number: UInt32(k)) else { continue }
            steps.append([(ids[Self.spinnerTile], f)])
        }
        return steps
    }

    /// Every cell of every surface per frame: all 16 hosts redraw in the other pattern.
    func allCellsFrames() -> [Step] {
        var hosts = hostSurfaces()
        for i in hosts.indices { _ = hosts[i].takeFrame(number: 0) }
        var steps: [Step] = []
        for pattern in [1, 0] {
            var step: Step = []
            for i in hosts.indices {
                Self.draw(&hosts[i], pattern: pattern, tileIndex: i)
                if let f = hosts[i].takeFrame(number: UInt32(pattern + 1)) { step.append((ids[i], f)) }
            }
            steps.append(step)
        }
        return steps
    }

    /// The compositor's state after the first frames, and a writer that has drawn it once.
    func startingState() throws -> (SurfaceTree, Surface, ScreenWriter) {
        var tree = SurfaceTree(root: ids[0])
        var hosts = hostSurfaces()
        for i in hosts.indices {
            if let f = hosts[i].takeFrame(number: 0) { try tree.apply(f, from: ids[i]) }
            if i > 0 { tree.place(placement(i), by: ids[0]) }
        }
        let (screen, writer) = Self.drawnOnce(&tree, on: Self.screen)
        return (tree, screen, writer)
    }

    /// Times `count` frames of `steps` through the compositor's path, or through the same
    /// apply and compose and a naive full redraw.
    func measure(frames steps: [Step], count: Int, naive: Bool, sink: DevNull) throws -> ComposeRun {
        var (tree, screen, writer) = try startingState()
        var naiveBytes: [UInt8] = []
        naiveBytes.reserveCapacity(Self.screen.width * Self.screen.height * 24)
        var bytes = 0
        let cpu0 = threadCPUNanoseconds(), wall0 = MonotonicClock.nanoseconds()
        for i in 0..<count {
            for (id, frame) in steps[i % steps.count] { try tree.apply(frame, from: id) }
            tree.compose(into: &screen)
            if naive {
                naiveBytes.removeAll(keepingCapacity: true)
                NaiveRedraw.frame(screen, into: &naiveBytes)
                sink.write(naiveBytes)
                bytes += naiveBytes.count
            } else {
                bytes += Self.write(&screen, with: &writer, to: sink)
            }
        }
        let cpu = threadCPUNanoseconds() - cpu0, wall = MonotonicClock.nanoseconds() - wall0
        return ComposeRun(frames: count, bytes: bytes, cpuNanoseconds: cpu, wallNanoseconds: wall)
    }
}

extension ComposeScene {
    /// A screen of `size` with `tree` composed on it (which the tree remembers, as the
    /// compositor's does), and a writer that has drawn it once: where a measurement's
    /// frames start.
    static func drawnOnce(_ tree: inout SurfaceTree, on size: Size) -> (Surface, ScreenWriter) {
        var screen = Surface(size: size)
        tree.compose(into: &screen)
        var writer = ScreenWriter(size: size, depth: depth)
        _ = writer.frame(screen, damage: screen.takeDamage())
        return (screen, writer)
    }

    /// The composed screen's change written as the compositor writes it, to `sink`;
    /// returns its bytes. The damage is taken first, as `Compositor.composeNow` takes it.
    static func write(_ screen: inout Surface, with writer: inout ScreenWriter, to sink: DevNull) -> Int {
        let damage = screen.takeDamage()
        let out = writer.frame(screen, damage: damage)
        sink.write(out)
        return out.count
    }
}
