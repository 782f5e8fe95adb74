/// Every message of the protocol, as a value. The body encoding of each case is in
/// `MessageBody.swift` and docs/PROTOCOL.md.
public enum Message: Sendable, Equatable {
    case hello(Hello)
    case ack
    case error(WireError)
    case heartbeat
    case touch(TouchInput)
    case key(KeyPress)
    case scroll(ScrollInput)
    case traits(Traits)
    case appearance(Appearance)
    case containment(Containment)
    case sizeTransition(SizeTransition)
    case memoryWarning
    case frame(FrameUpdate)
    case placement(Placement)
    case animation(Animation)
    case request(Request)
    case reply(Reply)

    public var kind: MessageKind {
        switch self {
        case .hello: .hello
        case .ack: .ack
        case .error: .error
        case .heartbeat: .heartbeat
        case .touch: .touch
        case .scroll: .scroll
        case .key: .key
        case .traits: .traits
        case .appearance: .appearance
        case .containment: .containment
        case .sizeTransition: .sizeTransition
        case .memoryWarning: .memoryWarning
        case .frame: .frame
        case .placement: .placement
        case .animation: .animation
        case .request: .request
        case .reply: .reply
        }
    }
}

// MARK: - Link control

/// A child's first message to its parent after it connects.
public struct Hello: Sendable, Equatable {
    public var pid: UInt32
    /// How often the sender heartbeats, so the receiver can judge silence.
    public var heartbeatMilliseconds: UInt32
    public init(pid: UInt32, heartbeatMilliseconds: UInt32) {
        self.pid = pid
        self.heartbeatMilliseconds = heartbeatMilliseconds
    }
}

/// The answer to a message that could not be accepted.
public struct WireError: Sendable, Equatable, Error, CustomStringConvertible {
    public var code: WireErrorCode
    public var text: String
    public init(_ code: WireErrorCode, _ text: String) {
        self.code = code
        self.text = text
    }
    public var description: String { "\(code.name): \(text)" }
}

/// Why a message was rejected. Numbers are part of the protocol.
public enum WireErrorCode: UInt16, Sendable, CaseIterable {
    case malformedFrames = 1
    case unsupportedVersion = 2
    case malformedHeader = 3
    case unknownKind = 4
    case truncatedBody = 5
    case oversizedBody = 6
    case invalidBody = 7
    case unknownTarget = 8
    case unsupportedFlags = 9
    case handlerFailed = 10
    case unhandled = 11
    case refusedID = 12

    public var name: String {
        switch self {
        case .malformedFrames: "malformed-frames"
        case .unsupportedVersion: "unsupported-version"
        case .malformedHeader: "malformed-header"
        case .unknownKind: "unknown-kind"
        case .truncatedBody: "truncated-body"
        case .oversizedBody: "oversized-body"
        case .invalidBody: "invalid-body"
        case .unknownTarget: "unknown-target"
        case .unsupportedFlags: "unsupported-flags"
        case .handlerFailed: "handler-failed"
        case .unhandled: "unhandled"
        case .refusedID: "refused-id"
        }
    }
}

// MARK: - Input

/// A pointer event in the receiver's coordinate space (cells).
public struct TouchInput: Sendable, Equatable {
    public enum Phase: UInt8, Sendable, CaseIterable, CustomStringConvertible {
        case began, moved, ended, cancelled

        /// The case's name, as Swift prints an enum, without the reflection that takes: a
        /// host's routing log names every touch by its phase (issue 20).
        public var description: String {
            switch self {
            case .began: "began"
            case .moved: "moved"
            case .ended: "ended"
            case .cancelled: "cancelled"
            }
        }
    }
    public var phase: Phase
    public var modifiers: KeyModifiers
    public var tapCount: UInt16
    public var pointer: UInt32
    public var x: Int32
    public var y: Int32
    /// Monotonic nanoseconds at the origin of the input.
    public var timestamp: UInt64
    public init(
        phase: Phase, modifiers: KeyModifiers = [], tapCount: UInt16 = 1, pointer: UInt32 = 0,
        x: Int32, y: Int32, timestamp: UInt64
    ) {
        self.phase = phase
        self.modifiers = modifiers
        self.tapCount = tapCount
        self.pointer = pointer
        self.x = x
        self.y = y
        self.timestamp = timestamp
    }
}

public struct KeyModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 1)
    public static let alt = KeyModifiers(rawValue: 2)
    public static let control = KeyModifiers(rawValue: 4)
    /// The text arrived inside bracketed paste.
    public static let paste = KeyModifiers(rawValue: 8)
    public static let known: KeyModifiers = [.shift, .alt, .control, .paste]
}

/// A key press: either a special key or text (one or more characters, or a paste).
public struct KeyPress: Sendable, Equatable {
    public enum Special: UInt16, Sendable, CaseIterable {
        case none = 0, enter, tab, backspace, escape, up, down, left, right
        case home, end, pageUp, pageDown, insert, delete
        case f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12
    }
    /// Where the key is in its press (issue 22): down, held down (the terminal's key
    /// repeat), or up. A terminal without the kitty keyboard protocol reports only
    /// `.began` — its repeats are indistinguishable from presses — and never `.ended`.
    /// `.began` is 0, the byte that was reserved before phases existed.
    public enum Phase: UInt8, Sendable, CaseIterable { case began = 0, repeated, ended }
    public var special: Special
    public var modifiers: KeyModifiers
    public var text: String
    public var timestamp: UInt64
    public var phase: Phase
    public init(
        special: Special = .none, modifiers: KeyModifiers = [], text: String = "", timestamp: UInt64 = 0,
        phase: Phase = .began
    ) {
        self.special = special
        self.modifiers = modifiers
        self.text = text
        self.timestamp = timestamp
        self.phase = phase
    }
}

// MARK: - Controller state

/// A trait collection, UIKit's `UITraitCollection` for a terminal.
public struct Traits: Sendable, Equatable, Hashable {
    // The routing log names a traits message by its size classes and style (Message's
    // summary): by name, without the reflection Swift's printing of an enum takes (issue 20).
    public enum SizeClass: UInt8, Sendable, CaseIterable, CustomStringConvertible {
        case unspecified, compact, regular

        public var description: String {
            switch self {
            case .unspecified: "unspecified"
            case .compact: "compact"
            case .regular: "regular"
            }
        }
    }
    public enum Style: UInt8, Sendable, CaseIterable, CustomStringConvertible {
        case unspecified, light, dark

        public var description: String {
            switch self {
            case .unspecified: "unspecified"
            case .light: "light"
            case .dark: "dark"
            }
        }
    }
    public enum Direction: UInt8, Sendable, CaseIterable { case unspecified, leftToRight, rightToLeft }
    public enum ColorDepth: UInt8, Sendable, CaseIterable { case unspecified, none, ansi16, ansi256, trueColor }
    public enum ContentSize: UInt8, Sendable, CaseIterable { case unspecified, small, medium, large, extraLarge }
    public var horizontal: SizeClass
    public var vertical: SizeClass
    public var style: Style
    public var direction: Direction
    public var colorDepth: ColorDepth
    public var contentSize: ContentSize
    public init(
        horizontal: SizeClass = .unspecified, vertical: SizeClass = .unspecified,
        style: Style = .unspecified, direction: Direction = .unspecified,
        colorDepth: ColorDepth = .unspecified, contentSize: ContentSize = .unspecified
    ) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.style = style
        self.direction = direction
        self.colorDepth = colorDepth
        self.contentSize = contentSize
    }
}

public struct Appearance: Sendable, Equatable {
    public enum Phase: UInt8, Sendable, CaseIterable, CustomStringConvertible {
        case willAppear, didAppear, willDisappear, didDisappear

        /// The case's name, as Swift prints an enum, without the reflection that takes: a
        /// host's routing log names every appearance by its phase (issue 20).
        public var description: String {
            switch self {
            case .willAppear: "willAppear"
            case .didAppear: "didAppear"
            case .willDisappear: "willDisappear"
            case .didDisappear: "didDisappear"
            }
        }
    }
    public var phase: Phase
    public var animated: Bool
    public init(_ phase: Phase, animated: Bool) {
        self.phase = phase
        self.animated = animated
    }
}

/// `willMove(toParent:)` / `didMove(toParent:)`; `parent == nil` means removal.
public struct Containment: Sendable, Equatable {
    public enum Phase: UInt8, Sendable, CaseIterable, CustomStringConvertible {
        case willMove, didMove

        /// The case's name, as Swift prints an enum, without the reflection that takes: a
        /// host's routing log names every containment message by its phase (issue 20).
        public var description: String {
            switch self {
            case .willMove: "willMove"
            case .didMove: "didMove"
            }
        }
    }
    public var phase: Phase
    public var parent: ControllerID?
    public init(_ phase: Phase, parent: ControllerID?) {
        self.phase = phase
        self.parent = parent
    }
}

/// `viewWillTransition(to:with:)`: the new size in cells and the animation length.
public struct SizeTransition: Sendable, Equatable {
    public var width: UInt32
    public var height: UInt32
    public var durationMilliseconds: UInt32
    public init(width: UInt32, height: UInt32, durationMilliseconds: UInt32 = 0) {
        self.width = width
        self.height = height
        self.durationMilliseconds = durationMilliseconds
    }
}

// MARK: - Rendering

/// One cell's colour: the terminal default, a palette index, or 24-bit RGB.
public enum CellColor: Sendable, Equatable, Hashable {
    case `default`
    case indexed(UInt8)
    case rgb(UInt8, UInt8, UInt8)
}

public struct CellAttributes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let bold = CellAttributes(rawValue: 1 << 0)
    public static let dim = CellAttributes(rawValue: 1 << 1)
    public static let italic = CellAttributes(rawValue: 1 << 2)
    public static let underline = CellAttributes(rawValue: 1 << 3)
    public static let blink = CellAttributes(rawValue: 1 << 4)
    public static let reverse = CellAttributes(rawValue: 1 << 5)
    public static let invisible = CellAttributes(rawValue: 1 << 6)
    public static let strikethrough = CellAttributes(rawValue: 1 << 7)
    public static let known = CellAttributes(rawValue: 0xFF)
}

/// A terminal cell. `scalar == 0` marks the right half of a wide character.
public struct Cell: Sendable, Equatable, Hashable {
    public var scalar: UInt32
    public var foreground: CellColor
    public var background: CellColor
    public var attributes: CellAttributes
    public init(
        scalar: UInt32 = 0x20, foreground: CellColor = .default, background: CellColor = .default,
        attributes: CellAttributes = []
    ) {
        self.scalar = scalar
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }
    public static let continuation: UInt32 = 0
}

/// A rectangle of cells in a surface's own coordinates.
public struct CellRect: Sendable, Equatable, Hashable {
    public var x: Int32
    public var y: Int32
    public var width: UInt16
    public var height: UInt16
    public init(x: Int32, y: Int32, width: UInt16, height: UInt16) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var area: Int { Int(width) * Int(height) }
}

/// A controller's new content: the damaged rectangles of its surface and their cells.
/// A frame is atomic: the compositor applies all of it or none of it.
public struct FrameUpdate: Sendable, Equatable {
    public struct Damage: Sendable, Equatable {
        public var rect: CellRect
        /// Row-major, `rect.area` cells.
        public var cells: [Cell]
        public init(rect: CellRect, cells: [Cell]) {
            self.rect = rect
            self.cells = cells
        }
    }
    /// Whose surface this is, when not the sender's own: a layer the sender lifted out of
    /// its surface for the compositor to move (an in-process child during a declared
    /// animation, docs/PROCESSES.md). The compositor takes it only for a surface the
    /// sender has placed.
    public var layer: ControllerID?
    public var number: UInt32
    public var width: UInt16
    public var height: UInt16
    public var damage: [Damage]
    public init(layer: ControllerID? = nil, number: UInt32, width: UInt16, height: UInt16, damage: [Damage]) {
        self.layer = layer
        self.number = number
        self.width = width
        self.height = height
        self.damage = damage
    }
}

/// Where a child's surface sits in its container's surface.
public struct Placement: Sendable, Equatable {
    public var surface: ControllerID
    public var frame: CellRect
    public var z: Int32
    public var clip: CellRect
    public var visible: Bool
    public init(surface: ControllerID, frame: CellRect, z: Int32, clip: CellRect, visible: Bool) {
        self.surface = surface
        self.frame = frame
        self.z = z
        self.clip = clip
        self.visible = visible
    }
}

/// A placement change the compositor interpolates itself, at its own frame rate.
public struct Animation: Sendable, Equatable {
    public enum Curve: UInt8, Sendable, CaseIterable { case linear, easeInOut, easeIn, easeOut }
    public var surface: ControllerID
    public var from: CellRect
    public var to: CellRect
    public var durationMilliseconds: UInt32
    public var delayMilliseconds: UInt32
    public var curve: Curve
    public init(
        surface: ControllerID, from: CellRect, to: CellRect, durationMilliseconds: UInt32,
        delayMilliseconds: UInt32 = 0, curve: Curve = .easeInOut
    ) {
        self.surface = surface
        self.from = from
        self.to = to
        self.durationMilliseconds = durationMilliseconds
        self.delayMilliseconds = delayMilliseconds
        self.curve = curve
    }
}

// MARK: - Delegation

/// A child asks its parent for something without knowing the parent's type.
public struct Request: Sendable, Equatable {
    public var name: String
    public var payload: [UInt8]
    public init(name: String, payload: [UInt8] = []) {
        self.name = name
        self.payload = payload
    }
}

extension Request {
    /// The compositor → a host that (re)connected: send every cell and every placement
    /// again, then answer (docs/PROTOCOL.md §5.7).
    public static let redraw = "redraw"
}

public struct Reply: Sendable, Equatable {
    /// `stale`: input (a touch, a key) that waited longer than the bound for its turn
    /// and was not run, rather than run late (docs/PROCESSES.md, "Input on time").
    public enum Status: UInt8, Sendable, CaseIterable, CustomStringConvertible {
        case ok, declined, failed, stale

        /// The case's name, as Swift prints an enum, without the reflection that takes: the
        /// routing log gives it as the reason of every reply that is not ok, such as a
        /// touch's press nothing took (issue 20).
        public var description: String {
            switch self {
            case .ok: "ok"
            case .declined: "declined"
            case .failed: "failed"
            case .stale: "stale"
            }
        }
    }
    public var status: Status
    public var payload: [UInt8]
    public init(status: Status, payload: [UInt8] = []) {
        self.status = status
        self.payload = payload
    }
}
