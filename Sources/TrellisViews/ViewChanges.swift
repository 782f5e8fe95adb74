/// Who is told that a view asked for layout or display — whatever made it ask: input, a
/// timer, a `Task`, a child's answer. A host listens and sends a frame on the next turn
/// of its loop, coalesced, so that a change draws itself without a call to anything
/// host-specific (UIKit draws what `setNeedsLayout`/`setNeedsDisplay` marked on the
/// run loop's next turn, whatever caused it; issue 21).
@MainActor
public enum ViewChanges {
    private static var observers: [(owner: ObjectIdentifier, notify: @MainActor () -> Void)] = []

    /// `notify` is called, on the main actor, each time a view asks for layout or
    /// display, until `stopObserving(by:)`. It must only note that a frame is due.
    public static func observe(by owner: AnyObject, _ notify: @escaping @MainActor () -> Void) {
        observers.append((ObjectIdentifier(owner), notify))
    }

    public static func stopObserving(by owner: AnyObject) {
        observers.removeAll { $0.owner == ObjectIdentifier(owner) }
    }

    static func changed() {
        for observer in observers { observer.notify() }
    }
}
