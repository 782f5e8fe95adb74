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
    /// (a system call) never delays the message that woke the loop.
    /// `sched_getcpu` reads what the kernel keeps for the thread, no system call.
    func followCPU() {
        let cpu = trellis_current_cpu()
        guard cpu >= 0, cpu != confined.lastCPU else { return }
        var settled = true
        for placement in confined.ledPlacements where !placement.follow(to: cpu) { settled = false }
        // An I/O thread not found yet: look again at the next wake-up.
        confined.lastCPU = settled ? cpu : -1
    }
}
