import ArgumentParser
import TrellisCanvas
import TrellisClient
import TrellisLog
import TrellisWire

/// `trellis tap`: a tap at a cell, or on the text the screen shows.
struct TapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tap", abstract: "Tap at X,Y or on the first place the screen shows --text.",
        discussion: """
            Exit status: 0 when the tree handled the tap, 2 when it reached the tree and \
            nothing handled it (no view there takes touches, no controller up the responder \
            chain did), 1 when it could not be delivered.
            """)

    @OptionGroup var options: SessionOptions
    @Argument(help: "The cell X,Y (0-based column,row).") var point: PointArgument?
    @Option(help: "Tap the middle of this text where the screen shows it.") var text: String?

    func validate() throws {
        guard (point == nil) != (text == nil) else { throw ValidationError("give either X,Y or --text TEXT") }
    }

    func run() async throws {
        try await options.withClient { client in
            if let text {
                let (at, trace) = try await client.tap(text: text)
                print("tapped \(text.debugDescription) at \(at.x),\(at.y), trace \(TraceID.hex(trace))")
            } else if let point {
                let trace = try await client.tap(at: point.point)
                print("tapped \(point.point.x),\(point.point.y), trace \(TraceID.hex(trace))")
            }
        }
    }
}

/// `trellis scroll`: the mouse wheel, at a cell or over the text the screen shows.
struct ScrollCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll", abstract: "Turn the mouse wheel at X,Y or over --text: --down N (default 1) or --up N notches.",
        discussion: "Exit status: 0 when something scrolled, 2 when nothing there scrolls that way, 1 when it could not be delivered.")

    @OptionGroup var options: SessionOptions
    @Argument(help: "The cell X,Y (0-based column,row).") var point: PointArgument?
    @Option(help: "Scroll over the middle of this text where the screen shows it.") var text: String?
    @Option(help: "Notches down.") var down: Int?
    @Option(help: "Notches up.") var up: Int?

    func validate() throws {
        guard (point == nil) != (text == nil) else { throw ValidationError("give either X,Y or --text TEXT") }
        guard down == nil || up == nil else { throw ValidationError("give --down or --up, not both") }
        for n in [down, up].compactMap({ $0 }) where !(1...100).contains(n) {
            throw ValidationError("notches are 1 to 100, not \(n)")
        }
    }

    func run() async throws {
        let notches = up.map { -$0 } ?? down ?? 1
        try await options.withClient { client in
            var at = point?.point ?? Point(x: 0, y: 0)
            if let text {
                let shown = try await client.screen()
                guard let found = ScreenText.locate(text, in: shown) else { throw ClientError.notOnScreen(text, screen: shown) }
                at = found
            }
            let trace = try await client.scroll(at: at, deltaY: notches)
            print("scrolled \(notches) at \(at.x),\(at.y), trace \(TraceID.hex(trace))")
        }
    }
}

/// `trellis drag`: a touch that moves from one cell to another.
struct DragCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drag", abstract: "Drag from X,Y to X,Y.",
        discussion: "Exit status: 0 when handled, 2 when nothing in the tree handled it, 1 when it could not be delivered.")

    @OptionGroup var options: SessionOptions
    @Argument(help: "Where the touch begins, X,Y.") var from: PointArgument
    @Argument(help: "Where it ends, X,Y.") var to: PointArgument
    @Option(help: "Moves between the two.") var steps = 8

    func run() async throws {
        let trace = try await options.withClient { try await $0.drag(from: from.point, to: to.point, steps: steps) }
        print("dragged, trace \(TraceID.hex(trace))")
    }
}

/// `trellis key`: text, or a named key.
struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "Send text, or a named key (enter, tab, escape, up, …, f12).")

    @OptionGroup var options: SessionOptions
    @Argument(help: "Text to type, or with --special a key name.") var text: String
    @Flag(help: "TEXT names a key.") var special = false
    @Flag(help: "With Ctrl held.") var ctrl = false
    @Flag(help: "With Alt held.") var alt = false
    @Flag(help: "With Shift held (a key name only: typed text is already shifted).") var shift = false
    @Option(help: "press, repeat or release — what a terminal with the kitty keyboard protocol reports.")
    var phase: PhaseArgument = .press

    enum PhaseArgument: String, ExpressibleByArgument, CaseIterable {
        case press, `repeat`, release
        var wire: KeyPress.Phase {
            switch self {
            case .press: .began
            case .repeat: .repeated
            case .release: .ended
            }
        }
    }

    func validate() throws {
        if shift && !special { throw ValidationError("--shift goes with --special: typed text is sent as the terminal sends it, already shifted ('A', not Shift+a)") }
    }

    func run() async throws {
        var modifiers: KeyModifiers = []
        if ctrl { modifiers.insert(.control) }
        if alt { modifiers.insert(.alt) }
        if shift { modifiers.insert(.shift) }
        var press = KeyPress(modifiers: modifiers, text: text, phase: phase.wire)
        if special {
            guard let key = KeyPress.Special.allCases.first(where: { "\($0)".lowercased() == text.lowercased() }), key != .none else {
                throw ValidationError("unknown key '\(text)'; one of \(KeyPress.Special.allCases.dropFirst().map { "\($0)" }.joined(separator: ", "))")
            }
            press = KeyPress(special: key, modifiers: modifiers, phase: phase.wire)
        }
        let trace = try await options.withClient { try await $0.key(press) }
        print("sent, trace \(TraceID.hex(trace))")
    }
}

/// `trellis resize`: what a terminal resize does — a size transition at the root.
struct ResizeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resize", abstract: "Resize the screen to COLUMNSxROWS.")

    @OptionGroup var options: SessionOptions
    @Argument(help: "The new size, COLUMNSxROWS.") var size: SizeArgument

    func run() async throws {
        try await options.withClient { try await $0.resize(to: size.size) }
    }
}
