import CPlatform

// Where libzmq's threads run (loop thread only): a loop that leads a context keeps its
// I/O threads on the CPU it runs on (`IOThreadPlacement`).
extension IOLoop {
    /// Keeps `context`'s libzmq I/O threads on the CPU this loop runs on, unless
    /// another loop leads that context already (`IOThreadPlacement`). A link calls
    /// it when it opens its socket.
    func keepIOThreadsNear(_ context: ZMQContext) {
        let placement = context.ioThreadPlacement
        guard !confined.ledPlacements.contains(where: { $0 === placement }), placement.lead(ObjectIdentifier(self))
        else { return }
        confined.ledPlacements.append(placement)
        confined.lastCPU = -1
        followCPU()
    }

    /// Before sleeping: the kernel may have put this thread on another CPU since the
    /// last time. Asked then rather than at the wake-up, so that moving the I/O threads
    /// (a system call) never delays the message that woke the loop; and they move only
    /// once the loop has stayed there (`CPUStreak`). `sched_getcpu` reads what the
    /// kernel keeps for the thread, no system call.
    func followCPU() {
        let cpu = trellis_current_cpu()
        guard cpu >= 0, confined.cpuStreak.follows(to: cpu, from: confined.lastCPU) else { return }
        var settled = true
        for placement in confined.ledPlacements where !placement.follow(to: cpu) { settled = false }
        // An I/O thread not found yet: look again at the next wake-up.
        confined.lastCPU = settled ? cpu : -1
    }

    /// Whether a loop has stayed on another CPU than its I/O threads' long enough for
    /// them to follow: it went to sleep there `sleepsBeforeFollowing` times in a row.
    ///
    /// A loop woken after each pause often finds itself on the other CPU, and back at
    /// the next wake-up: the kernel puts a woken thread on an idle CPU, and the I/O
    /// thread that woke it keeps its own CPU busy. Following every such flip moved
    /// the I/O threads at nearly every tap of `trellis bench latency`, in every
    /// process — a system call and a migration each, for a placement the next tap
    /// undid (docs/TRANSPORT.md, "Where the threads run").
    struct CPUStreak {
        static let sleepsBeforeFollowing = 3
        private(set) var cpu: Int32 = -1
        private(set) var sleeps = 0

        /// Notes that the loop goes to sleep on `cpu` while its I/O threads are on
        /// `placed` (-1: not placed yet); returns whether they move to `cpu` now.
        mutating func follows(to cpu: Int32, from placed: Int32) -> Bool {
            guard cpu != placed else {
                self = CPUStreak()
                return false
            }
            guard placed >= 0 else {
                self = CPUStreak()
                return true
            }
            sleeps = self.cpu == cpu ? sleeps + 1 : 1
            self.cpu = cpu
            guard sleeps >= Self.sleepsBeforeFollowing else { return false }
            self = CPUStreak()
            return true
        }
    }
}
