/// Ids that say who a peer is by convention, not by scene: the compositor's own ends,
/// the supervisor, the unknown sender of error replies, and control clients
/// (docs/PROTOCOL.md §1, "Identity").
extension ControllerID {
    /// The compositor's end of the hosts' links: the root controller's parent.
    public static let compositor: ControllerID = "compositor"
    /// The compositor's control endpoint, which clients attach to.
    public static let control: ControllerID = "control"
    /// The supervisor, when it speaks on a link or in the log.
    public static let supervisor: ControllerID = "supervisor"
    /// The sender of a reply to an envelope whose source could not be read.
    public static let unknown: ControllerID = "-"

    /// No controller may take these; no control client may speak as them.
    public static let reservedIDs: Set<ControllerID> = [.compositor, .control, .supervisor, .unknown]

    /// Every control client's id begins with this, and no controller's may: the
    /// compositor knows only the root, and a parent's code creates children the scene
    /// never names, so a prefix is the one rule both sides can check without a list.
    public static let clientPrefix = "client-"

    public var isReserved: Bool { Self.reservedIDs.contains(self) }

    /// Whether this id is a control client's (it begins with `clientPrefix`).
    public var isClientID: Bool { rawValue.hasPrefix(Self.clientPrefix) }
}
