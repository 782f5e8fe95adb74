import TrellisWire

/// How a parent answered a child end's hello: whether this end may speak there at all.
/// A parent that refuses an id (the compositor's control endpoint refuses controllers'
/// and reserved ids, issue 19 finding 8) answers the hello with `refused-id`.
public enum HelloAnswer: Sendable, Equatable {
    case accepted
    case refused(WireError)
}
