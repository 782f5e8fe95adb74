import Dispatch
import TrellisCanvas
import TrellisControllers
import TrellisTransport
import TrellisViews
import TrellisWire

/// Sends what this process shows to the compositor: the composed surface of the
/// controllers it hosts, as damage-only frames, and the placements of the viewports of
/// children that run elsewhere.
///
/// Frames are coalesced: any number of changes in one turn of the main queue make one
/// frame — except that input (a touch, a key) is followed at once by its frame, sent
/// before the input is answered. A frame carries only the cells that changed since the
/// last one.
@MainActor
final class FramePublisher {
    private let link: Link
    private let window: Window
    private var number: UInt32 = 0
    private var placements: [ControllerID: Placement] = [:]
    private var scheduled = false
    private var publishing = false
    /// The input that caused the next frame, if one did (the latest wins).
    private var trace: UInt64 = 0

    /// Listens for every view's change (`ViewChanges`): a label a timer or a `Task`
    /// changed is sent on the next turn like one input changed.
    init(link: Link, window: Window) {
        self.link = link
        self.window = window
        ViewChanges.observe(by: self) { [weak self] in self?.setNeedsFrame() }
    }

    isolated deinit {
        ViewChanges.stopObserving(by: self)
    }

    func setNeedsFrame() {
        if Switchboard.shared.trace != 0 { trace = Switchboard.shared.trace }
        // Layout while a frame is composed asks for display again: that frame shows it.
        guard !scheduled, !publishing else { return }
        scheduled = true
        // From the main queue, which a call's wait (Switchboard) does not serve: a
        // frame composed in the middle of a controller callback would see half a change.
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                // A `publishNow` since sent what this one would.
                guard self.scheduled else { return }
                self.publish()
            }
        }
    }

    /// Sends the frame now rather than at the end of the turn: for input, whose frame is
    /// what the person waits for, so it goes out before the input's answer does.
    func publishNow() {
        if Switchboard.shared.trace != 0 { trace = Switchboard.shared.trace }
        publish()
    }

    /// Sends everything again — every cell, every placement — for a compositor that has
    /// none of it: one that restarted, or that may hold a dead predecessor's placements
    /// (it drops what this does not send again; docs/PROCESSES.md).
    func publishAll() {
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
        guard size.width > 0, size.height > 0 else { return }
        var messages: [Message] = []
        if let frame = window.takeFrame(number: number &+ 1) {
            number &+= 1
            messages.append(.frame(frame))
        }
        var now: [ControllerID: Placement] = [:]
        for p in window.remotePlacements { now[p.surface] = p }
        for (id, p) in now.sorted(by: { $0.key < $1.key }) where placements[id] != p { messages.append(.placement(p)) }
        for (id, var p) in placements.sorted(by: { $0.key < $1.key }) where now[id] == nil {
            p.visible = false
            messages.append(.placement(p))
        }
        placements = now
        let link = self.link, out = messages, trace = self.trace
        self.trace = 0
        if !out.isEmpty {
            link.run { l in for m in out { _ = try? l.send(m, trace: trace) } }
        }
        if window.animator.isAnimating {
            DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(16)) {
                MainActor.assumeIsolated { self.setNeedsFrame() }
            }
        }
    }
}
