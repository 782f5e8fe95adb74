/// A value that only one loop's thread may touch, checked at every access: loop
/// confinement as a type rather than a comment (swift-nio's `NIOLoopBound` is the
/// model).
///
/// It is `Sendable` so that it can be captured by what runs on the loop — a source,
/// a timer, `execute` — whatever thread made it; a read or write from any other thread
/// stops the process with the loop's name, instead of racing.
public final class LoopBound<Value>: @unchecked Sendable {
    // @unchecked: `stored` is read and written only behind `loop.preconditionOnLoop()`,
    // so on one thread, whichever thread holds the reference.
    public let loop: IOLoop
    private var stored: Value

    /// From any thread: the value is handed to the loop; it is not touched here again.
    public init(_ value: Value, loop: IOLoop) {
        self.loop = loop
        stored = value
    }

    /// The value. On the loop's thread only.
    public var value: Value {
        get {
            loop.preconditionOnLoop()
            return stored
        }
        _modify {
            loop.preconditionOnLoop()
            yield &stored
        }
    }
}
