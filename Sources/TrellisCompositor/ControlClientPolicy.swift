import TrellisWire

/// Who may speak on the compositor's control endpoint, which any process of the user
/// can reach: a client under a controller's or a reserved id would write the routing
/// log, and be answered, as that controller (issue 19 finding 8). The compositor knows
/// only the root, and a parent's code creates children no scene names, so clients
/// carry a prefix no controller may (`ControllerID.clientPrefix`, refused by scenes)
/// instead of the compositor keeping a list of the tree's ids.
enum ControlClientPolicy {
    static func refusal(of id: ControllerID) -> String? {
        let rule = "a control client's id begins with '\(ControllerID.clientPrefix)'"
        if id.isReserved { return "'\(id)' is reserved (compositor, control, supervisor, -); \(rule)" }
        if !id.isClientID { return "'\(id)' may name a controller of the tree; \(rule)" }
        return nil
    }
}
