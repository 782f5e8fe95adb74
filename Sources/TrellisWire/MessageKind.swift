/// What a message is; the first field of the wire header. Values are part of the
/// protocol (docs/PROTOCOL.md) and never reused.
public enum MessageKind: UInt16, Sendable, CaseIterable, CustomStringConvertible {
    // Link control
    case hello = 1
    case ack = 2
    case error = 3
    case heartbeat = 4
    // Input
    case touch = 16
    case key = 17
    case scroll = 18
    // Controller state, parent → child
    case traits = 32
    case appearance = 33
    case containment = 34
    case sizeTransition = 35
    case memoryWarning = 36
    // Rendering, controller/container → compositor
    case frame = 48
    case placement = 49
    case animation = 50
    // Delegation, child → parent
    case request = 64
    case reply = 65

    /// The name used in logs, filters and the protocol document.
    public var name: String {
        switch self {
        case .hello: "hello"
        case .ack: "ack"
        case .error: "error"
        case .heartbeat: "heartbeat"
        case .touch: "touch"
        case .key: "key"
        case .scroll: "scroll"
        case .traits: "traits"
        case .appearance: "appearance"
        case .containment: "containment"
        case .sizeTransition: "size"
        case .memoryWarning: "memory-warning"
        case .frame: "frame"
        case .placement: "placement"
        case .animation: "animation"
        case .request: "request"
        case .reply: "reply"
        }
    }

    public var description: String { name }

    /// A person's input — touch, key, wheel: answered by reply, and not run once it has
    /// waited past the input bound (docs/PROCESSES.md, "Input on time").
    public var isInput: Bool { self == .touch || self == .key || self == .scroll }

    /// Looks a kind up by its log name.
    public init?(name: String) {
        guard let kind = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = kind
    }

    /// The largest body a well-formed message of this kind may carry. Anything
    /// larger is rejected before it is parsed.
    public var maxBodySize: Int {
        switch self {
        case .ack, .heartbeat, .memoryWarning: 0
        case .hello: 8
        case .error: 2 + 2 + WireLimits.maxErrorText
        case .touch: 24
        case .scroll: 28
        case .key: 14 + WireLimits.maxPasteText
        case .traits: 6
        case .appearance: 2
        case .containment: 2 + ControllerID.maxLength
        case .sizeTransition: 12
        case .frame: WireLimits.maxFrameBody
        case .placement: 30 + ControllerID.maxLength
        case .animation: 34 + ControllerID.maxLength
        case .request: 1 + WireLimits.maxRequestName + 4 + WireLimits.maxPayload
        case .reply: 1 + 4 + WireLimits.maxPayload
        }
    }
}

/// Size bounds of the protocol. A decoder rejects anything beyond them.
public enum WireLimits {
    public static let maxErrorText = 1024
    public static let maxKeyText = 4096
    /// A paste's key (modifier `.paste`) may carry as much as its length field can say, so
    /// that a paste up to 64 KiB reaches the focused view as one insertion.
    public static let maxPasteText = Int(UInt16.max)

    /// The most text bytes a key may carry.
    public static func maxKeyText(pasting: Bool) -> Int { pasting ? maxPasteText : maxKeyText }
    public static let maxRequestName = 64
    public static let maxPayload = 64 * 1024
    /// 2 MiB holds a full 300×250 screen of cells.
    public static let maxFrameBody = 2 * 1024 * 1024
    public static let maxDamageRects = 1024
    /// The socket-level bound (ZMQ_MAXMSGSIZE): a peer that sends a larger frame is
    /// disconnected by libzmq before we see it.
    public static let maxSocketFrame = 4 * 1024 * 1024
}
