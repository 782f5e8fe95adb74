import TrellisCanvas
import TrellisControllers
import TrellisTransport
import TrellisViews
import TrellisWire

/// Sends what this process shows to the compositor: the composed surface of the
/// controllers it hosts, as damage-only frames, and the placements of the viewports of
/// children that run elsewhere.
///
/// Frames are coalesced: any number of changes in one turn of the tree's loop make one
/// frame — except that input (a touch, a key) is followed at once by its frame, sent
/// before the input is answered. A frame carries only the cells that changed since the
/// last one.
///
/// Declared animations (a push's slide, a page scroll) are the compositor's to show: the
/// window declares each motion once, lifting a moving in-process child into a layer of
/// its own; each `animation` goes out as a request whose acknowledgement is the
/// compositor saying the motion is over, which ends it here (`Animator.finished`) and
/// runs its completions. No frame goes out per step.
///
/// Its window's tree's: it runs on the tree's loop (`ViewTree.loop`), whose thread is its
/// link's loop's.
final class FramePublisher {
    private let link: Link
    private let window: Window
    private var number: UInt32 = 0
    private var placements: [ControllerID: Placement] = [:]
    private var scheduled = false
    private var publishing = false
    /// The input that caused the next frame, if one did (the latest wins).
    private var trace: UInt64 = 0
    /// Its link's loop's: the one whose calls and traces are this host's.
    private var switchboard: Switchboard { Switchboard.of(link.loop) }

    /// Listens for every change of the window's views (`ViewTree.observe`): a label a
    /// timer or a `Task` changed is sent on the next turn like one input changed.
    init(link: Link, window: Window) {
        self.link = link
        self.window = window
        window.tree.observe(by: self) { [weak self] in self?.setNeedsFrame() }
        window.showsNow = { [weak self] in self?.showNow() }
    }

    deinit {
        window.tree.stopObserving(by: self)
    }

    func setNeedsFrame() {
        if switchboard.trace != 0 { trace = switchboard.trace }
        // Layout while a frame is composed asks for display again: that frame shows it.
        guard !scheduled, !publishing else { return }
        scheduled = true
        // On the tree's loop's next turn, which a call's wait (Switchboard) does not
        // serve: a frame composed in the middle of a controller callback would see half a
        // change.
        window.tree.loop.execute {
            // A `publishNow` since sent what this one would.
            guard self.scheduled else { return }
            self.publish()
        }
    }

    /// Sends the frame now rather than at the end of the turn: for input, whose frame is
    /// what the person waits for, so it goes out before the input's answer does.
    func publishNow() {
        if switchboard.trace != 0 { trace = switchboard.trace }
        publish()
    }

    /// A container laid out a new child before its dids (`Window.showLaidOutTree`): its
    /// frame goes now, not after the dids' round trips to other processes. Not while
    /// this thread waits on a child part-way through something else, or composes a frame
    /// itself: the tree may be half-changed then, as for input (`ChildHost.deliver`).
    private func showNow() {
        guard !publishing, !switchboard.isWaiting else { return }
        publishNow()
    }

    /// Sends everything again — every cell, every placement — for a compositor that has
    /// none of it: one that restarted, or that may hold a dead predecessor's placements
    /// (it drops what this does not send again; docs/PROCESSES.md).
    func publishAll() {
        // Asked by a compositor, which is there to show and end animations from now on:
        // one declared to an endpoint nobody listens on would wait for its backstop.
        window.animator.presentsElsewhere = true
        window.forgetFramedSurface()
        placements = [:]
        publish()
    }

    private func publish() {
        scheduled = false
        publishing = true
        defer { publishing = false }
        window.tick()
        let size = window.size
        guard size.width > 0, size.height > 0 else {
            // Nothing is on the screen to move: what was declared meanwhile ends by time.
            window.animator.declared([:])
            scheduleDeadline()
            return
        }
        let frame = window.takeFrame(number: number &+ 1)
        if frame != nil { number &+= 1 }
        var now: [ControllerID: Placement] = [:]
        for p in window.remotePlacements { now[p.surface] = p }
        // In this order, so the compositor can apply them as one: a lifted layer is placed
        // before its frame comes (it takes a layer only where its sender placed it), its
        // motion before the window's frame shows the gap it left, and a layer going back
        // into the window's surface is hidden after the frame that shows it there.
        var messages: [Message] = []
        for (id, p) in now.sorted(by: { $0.key < $1.key }) where placements[id] != p { messages.append(.placement(p)) }
        for var lifted in window.liftedFrames {
            lifted.number = number
            messages.append(.frame(lifted))
        }
        let declared = window.declarations
        if let frame { messages.append(.frame(frame)) }
        for (id, var p) in placements.sorted(by: { $0.key < $1.key }) where now[id] == nil {
            p.visible = false
            messages.append(.placement(p))
        }
        placements = now
        let link = self.link, out = messages, trace = self.trace, slack = Self.acknowledgementSlack
        self.trace = 0
        if !out.isEmpty || !declared.isEmpty {
            // Reached again from the link's answers, on its loop — the tree's thread.
            let this = LoopBound(Weak(self), loop: link.loop), loop = link.loop
            link.run { l in
                // One write on a lane: the compositor wakes once for all of them.
                l.cork()
                defer { l.uncork() }
                guard !declared.isEmpty else {
                    // One batch: the compositor composes once, after the last of them, not
                    // between the frame and its placements (`moreInBatch`).
                    for (k, m) in out.enumerated() {
                        _ = try? l.send(m, trace: trace, flags: k < out.count - 1 ? .moreInBatch : [])
                    }
                    return
                }
                var i = 0
                // The motions go right before the window's frame (see above).
                let firstFrameOrHide = out.firstIndex { if case .frame(let f) = $0 { f.layer == nil } else { false } }
                    ?? out.firstIndex { if case .placement(let p) = $0 { !p.visible } else { false } } ?? out.count
                while i < firstFrameOrHide { _ = try? l.send(out[i], trace: trace); i += 1 }
                // Each as a request: its acknowledgement, when the compositor has shown the
                // motion to its end, ends it here; so does no answer coming (the compositor
                // is gone) — the model is at its end either way.
                for (group, animation) in declared {
                    let span = Duration.milliseconds(Int(animation.durationMilliseconds) + Int(animation.delayMilliseconds))
                    l.request(.animation(animation), timeout: span + slack) { _ in
                        // Not inside the frame of the link that heard it: on the loop's turn.
                        loop.execute { this.value.publisher?.finished(group: group) }
                    }
                }
                while i < out.count { _ = try? l.send(out[i], trace: trace); i += 1 }
            }
        }
        // Sent: now the placements' log lines, which the frame did not wait for.
        window.logArrangedPlacements()
        scheduleDeadline()
    }

    /// How long past an animation's end its acknowledgement may take before the host ends
    /// it itself (as a request's answer may: `LinkOptions.requestTimeout`).
    static let acknowledgementSlack = Duration.seconds(2)

    private func finished(group: Int) {
        window.animator.finished(group: group)
        // The layer goes back into the window's surface even if the completions changed
        // no view.
        setNeedsFrame()
    }

    /// Wakes up for the animations that end by time here (nothing of them was on the
    /// screen to declare, or no compositor has asked for frames yet: then the window
    /// interpolates, frame by frame).
    private func scheduleDeadline() {
        if window.animator.isInterpolating {
            window.tree.loop.schedule(at: .now + .milliseconds(16)) { self.setNeedsFrame() }
            return
        }
        guard let deadline = window.animator.nextDeadline else { return }
        let wait = max(0, deadline - window.animator.now())
        window.tree.loop.schedule(at: .now + .seconds(wait)) { self.setNeedsFrame() }
    }
}

/// A publisher reached again from its link's answers, if it is still there.
private struct Weak {
    weak var publisher: FramePublisher?
    init(_ publisher: FramePublisher) { self.publisher = publisher }
}
