import ArgumentParser
import Foundation
import TrellisLog
import TrellisSession
import TrellisTransport

/// The actor placement's half of `trellis bench tree` (issue 20), in a process of its own
/// so that its memory is weighed on a fresh heap (`TreeActorWorkload`): prints its table,
/// then one line of its figures (`actor_children=…`), which `trellis bench tree` puts on
/// its own last line. Hidden: started by the benchmark.
struct TreeActorPeer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree-actors", abstract: "Helper process of 'trellis bench tree'.", shouldDisplay: false)

    @Option var children: Int
    @Option var repetitions: Int

    func validate() throws {
        guard children >= 1, repetitions >= 1 else { throw ValidationError("--children and --repetitions must be at least 1") }
    }

    @MainActor
    func run() async throws {
        print("actor placement: a root with \(children) children, each the same controller, hosted as actor children "
            + "(a ChildHost each, over an inproc link) beside the same children inline; \(repetitions) repetitions, medians")
        let run = try RunDirectory.create(session: "bench-tree-actors-\(getpid())")
        defer { try? FileManager.default.removeItem(atPath: run.path) }
        let log = try RoutingLog(directory: run.logs, host: "bench-tree")
        // Serves the main actor, as a host's loop does: the calls to actor children wait on it.
        let loop = IOLoop(mainQueueNamed: "bench-tree")
        defer {
            log.close()
            loop.shutdown()
        }
        let workload = TreeActorWorkload(children: children, loop: loop, log: log)
        let memory = try await workload.weigh()
        let (inline, actor) = try await workload.run(repetitions: repetitions, memory: memory)
        let n = Double(children)
        print("  step                                        actor ms    us/child    inline ms   us/child    ratio")
        for (name, a, i) in [
            ("create (host, addChild, view, didMove)", actor.create, inline.create),
            ("window takes the root (first traits)", actor.attach, inline.attach),
            ("appear (makeKeyAndVisible)", actor.appear, inline.appear),
            ("trait change (resize 120<->60 columns)", actor.traits, inline.traits),
        ] {
            print("  \(name.padding(toLength: 44, withPad: " ", startingAt: 0))\(figure(a, 2).padded(8))  \(figure(a * 1e3 / n, 1).padded(10))"
                + "  \(figure(i, 3).padded(10))  \(figure(i * 1e3 / n, 2).padded(8))  \(figure(a / i, 1).padded(7))")
        }
        let bytes = { (b: Double?) in b.map { figure($0, 0) } ?? "n/a" }
        print("  memory: \(bytes(actor.bytesPerChild)) bytes per actor child (its controller, views, ChildHost, window, links), "
            + "\(bytes(inline.bytesPerChild)) per inline child")
        print("actor_children=\(children) actor_create_ms=\(figure(actor.create, 2)) actor_attach_ms=\(figure(actor.attach, 2)) "
            + "actor_appear_ms=\(figure(actor.appear, 2)) actor_traits_ms=\(figure(actor.traits, 2)) "
            + "actor_bytes_per_child=\(bytes(actor.bytesPerChild)) actor_inline_create_ms=\(figure(inline.create, 3)) "
            + "actor_inline_appear_ms=\(figure(inline.appear, 3)) actor_inline_traits_ms=\(figure(inline.traits, 3)) "
            + "actor_inline_bytes_per_child=\(bytes(inline.bytesPerChild)) actor_create_ratio=\(figure(actor.create / inline.create, 1)) "
            + "actor_appear_ratio=\(figure(actor.appear / inline.appear, 1)) actor_traits_ratio=\(figure(actor.traits / inline.traits, 1))")
    }
}
