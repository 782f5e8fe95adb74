import Foundation
import TrellisLog
import TrellisWire

/// How a link behaves; the defaults suit a terminal UI on one machine.
public struct LinkOptions: Sendable {
    /// A link heartbeats a peer it has sent nothing to for this long. Each beat wakes
    /// the peer's process: at 100 ms an idle demo's nine processes woke about 540 times a
    /// second and used 1.9% of a core (docs/PROCESSES.md, "Idle").
    public var heartbeatInterval: Duration = .milliseconds(200)
    /// A peer silent for this long is reported lost: what waits for it fails, its parent
    /// shows a placeholder. A host's links run on its main thread, so this is also how
    /// soon a hung process is seen (docs/PROCESSES.md); three intervals, so one late
    /// heartbeat is not a loss.
    public var heartbeatTimeout: Duration = .milliseconds(600)
    /// How long `request` waits for an ack or reply by default.
    public var requestTimeout: Duration = .seconds(2)
    /// Messages queued per peer before sends are dropped (ZMQ_SNDHWM / ZMQ_RCVHWM).
    public var highWaterMark: Int32 = 10_000
    /// How long closing waits to flush queued messages (ZMQ_LINGER).
    public var linger: Duration = .milliseconds(200)
    /// Queue messages only to completed connections (ZMQ_IMMEDIATE, child side).
    public var immediate = false
    /// A peer that sends a larger frame is disconnected by libzmq (ZMQ_MAXMSGSIZE).
    public var maxMessageSize = Int64(WireLimits.maxSocketFrame)
    /// ZMTP-level pings, which detect a dead TCP connection (ZMQ_HEARTBEAT_*); nil = off.
    public var transportHeartbeat: Duration? = .seconds(1)
    /// Same-process peers exchange message values without ZeroMQ or serialization.
    public var localFastPath = true
    /// Over `ipc://`, the two ends move their messages to a Unix stream socket of their
    /// own once the child's hello is answered, past libzmq's I/O threads (docs/TRANSPORT.md,
    /// "Lanes"). A child end asks; a parent end gives one to a child that asks.
    public var lanes = true
    /// Messages handled per socket wake-up before other sources get their turn.
    public var receiveBatch = 256
    /// Whether the link reads every message waiting on its socket before the loop runs
    /// the work its handler queued for them. Off, it goes back to the loop as soon as a
    /// handler queued work, so a host handles a touch before it reads its socket again —
    /// a receive costs libzmq system calls even when it finds nothing. On, the queued
    /// work can see what arrived with it: the compositor composes a burst of frames once.
    public var readsAhead = false
    /// Who this end is, said in its hello: a hello under the same id with another
    /// incarnation is a restart, and what waited for the old one fails at once. The
    /// process id by default; an end restarted inside one process (a test, an actor
    /// child) says another.
    public var incarnation = UInt32(truncatingIfNeeded: getpid())
    /// Parent end: a newcomer with a connected child's routing id takes it over
    /// (ZMQ_ROUTER_HANDOVER). A restarted host needs that to get its id back before the
    /// old connection is noticed gone. Off, libzmq keeps the first connection and never
    /// reads the newcomer, which sees no answer: what an endpoint open to any process of
    /// the user (the compositor's control endpoint) needs, so a client cannot cut
    /// another off (issue 19 finding 8).
    public var routerHandover = true
    /// Parent end: why a peer may not speak here under its id, or nil if it may. Every
    /// message from a refused id is rejected with `refused-id` and this reason, so the
    /// refused end learns it from the answer to its hello.
    public var refusal: (@Sendable (ControllerID) -> String?)? = nil
    /// CURVE keys (docs/PROTOCOL.md §1, Identity): nil, the link is plain, as links
    /// outside a supervised session (tests, `trellis peer`, other languages) are.
    public var curve: CurveKeys? = nil
    /// Child end: watch the connection's ZMTP handshakes (`Link.handshake`), so that a
    /// hello nobody answers can be told apart from a parent that is not there.
    public var watchesHandshake = false
    /// Parent end: a peer whose connection closes has left, as a client does when it is
    /// done — logged as an event ("left"), not `lost`. Silence past the heartbeat
    /// timeout is still `lost`. For the compositor's control endpoint (issue 21).
    public var departuresAreNormal = false

    public init() {}
}

extension Duration {
    var milliseconds: Int32 { Int32(clamping: nanoseconds / 1_000_000) }
}
