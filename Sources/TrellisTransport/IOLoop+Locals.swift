// What a loop keeps for the code on its thread, as a thread keeps thread-local values:
// one object per type, made on first use and kept as long as the loop.
extension IOLoop {
    /// The loop's `T`, made by `make` the first time it is asked for. Loop thread only:
    /// what is kept here belongs to the loop's thread and is reached by the loop, not
    /// by a global (a host's `Switchboard`: one per loop that serves hosts).
    public func local<T: AnyObject>(_ type: T.Type = T.self, _ make: () -> T) -> T {
        let key = ObjectIdentifier(type)
        if let kept = confined.locals[key] { return unsafeDowncast(kept, to: T.self) }
        let made = make()
        confined.locals[key] = made
        return made
    }
}
