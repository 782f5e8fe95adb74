import Foundation
import TrellisCanvas
import TrellisWire
import Yams

/// A scene file: the storyboard of a session — which controllers exist, of which class,
/// where each runs, what it is embedded in and handed, and how failures are handled.
/// The format is in docs/SCENES.md.
public struct Scene: Equatable, Sendable {
    public enum Placement: String, Sendable, CaseIterable {
        /// Its own host process.
        case process
        /// Inside its parent's process, hosted apart and reached only over a link with
        /// the same messages as a process (`ActorChildren`, docs/PROCESSES.md).
        case actor
        /// Inside its parent's process, in its parent's tree, called directly: the
        /// fastest, and what a plain `addChild` in code gives.
        case inline
    }

    public enum RestartStrategy: String, Sendable, CaseIterable {
        /// Restart only the process that died.
        case oneForOne = "one-for-one"
        /// Restart every host process when one dies.
        case oneForAll = "one-for-all"
    }

    public struct Controller: Equatable, Sendable {
        public var id: ControllerID
        public var className: String
        public var parent: ControllerID?
        public var placement: Placement
        /// A host name for later multi-machine use; only this machine ("local") runs today.
        public var host: String
        /// The container view (identifier) of the parent it is embedded in.
        public var embed: String?
        /// Handed to the controller when it is embedded (what `prepareForSegue` does).
        public var data: [String: String]
        /// The line that declared it, and the line of its `class:`, for messages.
        public var line: Int
        public var classLine: Int
    }

    public var file: String
    /// The app binary: a path (absolute, or relative to the scene file) when it holds a
    /// `/`, else a name looked for beside `trellis`, then on `PATH` (`SceneBinaries`).
    public var app: String
    /// The line of `app:`, for messages; nil when the scene does not say (the default).
    public var appLine: Int?
    public var controllers: [Controller]
    public var strategy: RestartStrategy
    /// At most this many restarts …
    public var intensity: Int
    /// … within this many seconds; past it the supervisor stops the tree and says why.
    public var period: Double
    /// A process whose main thread has not beaten its pulse for this many seconds is
    /// hung: the supervisor kills it, and the restart policy takes over.
    public var hang: Double = 2
    public var size: Size

    public var root: Controller { controllers.first { $0.parent == nil }! }

    public func children(of id: ControllerID) -> [Controller] { controllers.filter { $0.parent == id } }

    /// The controller whose process runs `c`: itself if process-placed, else its parent's.
    public func processOwner(of c: Controller) -> Controller {
        nearest(c) { $0.placement == .process }
    }

    /// The controller whose loop runs `c`: itself if it is placed as a process or an actor
    /// (each runs on a loop of its own, docs/PROCESSES.md "Placements"), else its parent's.
    public func loopOwner(of c: Controller) -> Controller {
        nearest(c) { $0.placement != .inline }
    }

    /// `c` if `owns` holds for it, else its nearest ancestor for which it does (the root,
    /// if none does: it runs in a process of its own whatever its placement).
    private func nearest(_ c: Controller, where owns: (Controller) -> Bool) -> Controller {
        var current = c
        while !owns(current), let p = current.parent, let parent = controllers.first(where: { $0.id == p }) {
            current = parent
        }
        return current
    }

    /// The parent end `c`'s own process, if it has one, connects to: that of the loop that
    /// runs `c`'s parent — its process's, or an actor's in that process, which binds one of
    /// its own (issue 20). Nil for the root, whose parent is the compositor.
    public func parentEnd(of c: Controller) -> ControllerID? {
        guard let p = c.parent, let parent = controllers.first(where: { $0.id == p }) else { return nil }
        return loopOwner(of: parent).id
    }

    /// The controllers that get their own process, parents before children.
    public var processes: [Controller] { controllers.filter { $0.placement == .process || $0.parent == nil } }

    /// The processes below process `id` in the tree: its children's, theirs, and so on.
    /// Their containment and appearance were given by `id`'s controllers; when that
    /// process dies they belong to a tree that is gone.
    public func processDescendants(of id: ControllerID) -> [ControllerID] {
        var below: [ControllerID] = []
        for c in processes where c.id != id {
            var owner = c.parent.flatMap { p in controllers.first { $0.id == p } }
            while let o = owner {
                let process = processOwner(of: o)
                if process.id == id { below.append(c.id); break }
                owner = process.parent.flatMap { p in controllers.first { $0.id == p } }
            }
        }
        return below
    }
}

/// A problem in a scene file: file, line and field, before anything starts.
public struct SceneError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var field: String?
    public var message: String
    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(field.map { "\($0): " } ?? "")\(message)"
    }
}
