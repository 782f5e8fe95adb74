import CPlatform
import CZeroMQ
import Foundation
import Synchronization

/// Keeps a libzmq context's I/O threads on the CPU where the I/O loop that uses
/// them last woke up.
///
/// A message between two processes passes four threads: the sender's loop, its
/// context's I/O thread, the receiver's I/O thread, the receiver's loop. Each
/// hand-off is a wake-up. Inside a process the hand-off is cheap when the two
/// threads share a CPU: the loop is about to sleep, and the I/O thread simply runs
/// next. When they sit on different CPUs, the other CPU must often be woken from
/// idle, which on a virtual machine is an interrupt through the hypervisor. Linux
/// does not know that the two threads work as a pair. On the 2-core benchmark
/// machine it kept them apart for most of a run: `trellis bench transport` gave a
/// link round trip of 119–121 µs with `TRELLIS_IO_THREADS=free` and 77–83 µs
/// following, in alternating runs (docs/TRANSPORT.md, "Where the threads run").
///
/// So the loop that leads a context checks, each time it is about to sleep, which CPU
/// it runs on. When it has gone to sleep on another CPU a few times in a row
/// (`IOLoop.CPUStreak`), the context's I/O threads are moved to it. The loop
/// itself is never pinned, so the kernel still spreads processes over the CPUs, and
/// the I/O thread follows. Only one loop leads a context: the first that asks. Two
/// loops on different CPUs would only drag the I/O thread back and forth. When the
/// leading loop stops, the I/O threads get their own CPU mask back.
///
/// Linux only: elsewhere `trellis_current_cpu` fails and nothing moves.
/// `TRELLIS_IO_THREADS=free` turns following off for contexts made afterwards,
/// for people who place threads themselves.
public final class IOThreadPlacement: Sendable {
    /// Whether new contexts let their I/O threads follow a loop: true unless
    /// `TRELLIS_IO_THREADS=free`.
    public static let followsByDefault: Bool = followSetting(ProcessInfo.processInfo.environment["TRELLIS_IO_THREADS"])

    /// Reads `TRELLIS_IO_THREADS`: "follow" (or unset) and "free". Anything else is
    /// reported on standard error and read as the default, "follow": a typo must
    /// not silently change how a process runs.
    static func followSetting(_ value: String?) -> Bool {
        switch value {
        case nil, "", "follow": return true
        case "free": return false
        case let other?:
            FileHandle.standardError.write(
                Data("trellis: TRELLIS_IO_THREADS=\(other.debugDescription) is not \"follow\" or \"free\"; using \"follow\"\n".utf8))
            return true
        }
    }

    /// Whether this context's I/O threads follow a loop at all.
    public let follows: Bool
    /// The thread-name prefix the context gave libzmq, by which its I/O threads are
    /// found among the process's threads ("7/ZMQbg/IO/0").
    let namePrefix: Int32

    private struct State {
        var leader: ObjectIdentifier?
        /// Kernel thread ids of the I/O threads, found on the first move.
        var threads: [Int32] = []
        /// Each thread's CPU mask before the first move, given back on release.
        var original: [Int32: trellis_cpu_mask] = [:]
        var pinnedCPU: Int32?
        /// Looks in /proc that found no I/O thread yet.
        var searches = 0
        /// Why moving failed; after a failure nothing is tried again.
        var failure: String?
    }

    /// How many wake-ups may look for the I/O threads before giving up. libzmq
    /// starts them with the context's first socket and they name themselves as they
    /// start, so they are usually found at the first look, and always within a few.
    static let searchLimit = 200
    private let state = Mutex(State())

    init(namePrefix: Int32, follows: Bool) {
        self.namePrefix = namePrefix
        self.follows = follows
    }

    /// The CPU the I/O threads are pinned to, or nil while they are free.
    public var pinnedCPU: Int32? { state.withLock { $0.pinnedCPU } }

    /// The kernel thread ids of the context's I/O threads, as found in /proc.
    public var ioThreadIDs: [Int32] { state.withLock { $0.threads.isEmpty ? findThreads() : $0.threads } }

    /// Makes `loop` the one the I/O threads follow, unless another leads already.
    /// Returns whether it leads.
    func lead(_ loop: ObjectIdentifier) -> Bool {
        guard follows else { return false }
        return state.withLock { s in
            if s.leader == nil { s.leader = loop }
            return s.leader == loop
        }
    }

    /// Moves the I/O threads to `cpu`: the leading loop runs there. Returns false
    /// when they are not found yet, so that the loop asks again before its next sleep.
    func follow(to cpu: Int32) -> Bool {
        state.withLock { s in
            guard s.failure == nil, s.pinnedCPU != cpu else { return true }
            if s.threads.isEmpty {
                s.threads = findThreads()
                if s.threads.isEmpty {
                    s.searches += 1
                    guard s.searches >= Self.searchLimit else { return false }
                    fail(&s, "libzmq's I/O threads were not found under /proc/self/task")
                    return true
                }
                for tid in s.threads {
                    var mask = trellis_cpu_mask()
                    if trellis_get_cpu_mask(tid, &mask) == 0 { s.original[tid] = mask }
                }
            }
            for tid in s.threads where trellis_pin_thread(tid, cpu) != 0 {
                fail(&s, "cannot move libzmq I/O thread \(tid) to CPU \(cpu): \(String(cString: strerror(trellis_errno())))")
                return true
            }
            s.pinnedCPU = cpu
            return true
        }
    }

    /// Gives up following, says why once, and leaves the threads to the kernel.
    private func fail(_ s: inout State, _ reason: String) {
        s.failure = reason
        FileHandle.standardError.write(Data("trellis: \(reason); the I/O thread stays where the kernel puts it\n".utf8))
        restore(&s)
    }

    /// `loop` stops leading: the I/O threads get their own CPU masks back, and the
    /// next loop to ask leads.
    func release(_ loop: ObjectIdentifier) {
        state.withLock { s in
            guard s.leader == loop else { return }
            s.leader = nil
            restore(&s)
        }
    }

    private func restore(_ s: inout State) {
        for (tid, var mask) in s.original { _ = trellis_set_cpu_mask(tid, &mask) }
        s.pinnedCPU = nil
    }

    /// The process's threads that libzmq named for this context's I/O threads.
    private func findThreads() -> [Int32] {
        let name = "\(namePrefix)/ZMQbg/IO/"
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task -> Int32? in
            guard let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8),
                comm.hasPrefix(name)
            else { return nil }
            return Int32(task)
        }.sorted()
    }
}
