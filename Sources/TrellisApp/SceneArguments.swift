import ArgumentParser
import TrellisControllers
import TrellisLog
import TrellisWire

/// What the supervisor tells a host from the scene file: data for the controllers of
/// this process, and embed segues for the ones whose children the scene places.
struct SceneArguments: Sendable {
    var data: [ControllerID: [String: String]] = [:]
    var segues: [ControllerID: [EmbedSegue]] = [:]

    init(data: [String], embeds: [String]) throws {
        for item in data {
            guard let colon = item.firstIndex(of: ":"), let equals = item[colon...].firstIndex(of: "="),
                  let id = ControllerID(String(item[..<colon])) else {
                throw ValidationError("--data: expected ID:NAME=VALUE, got '\(item)'")
            }
            let name = String(item[item.index(after: colon)..<equals])
            guard !name.isEmpty else { throw ValidationError("--data: empty name in '\(item)'") }
            self.data[id, default: [:]][name] = String(item[item.index(after: equals)...])
        }
        for item in embeds {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 4, let parent = ControllerID(parts[0]), let child = ControllerID(parts[1]),
                  !parts[2].isEmpty, !parts[3].isEmpty else {
                throw ValidationError("--embed: expected PARENT:CHILD:CLASS:VIEW, got '\(item)'")
            }
            segues[parent, default: []].append(EmbedSegue(destination: child, className: parts[2], containerView: parts[3]))
        }
        for (parent, list) in segues {
            segues[parent] = list.map { s in
                var s = s
                s.data = self.data[s.destination] ?? [:]
                return s
            }
        }
    }

    /// Every controller the registry makes here gets its data and segues: a host's
    /// registry, and each actor child's, on its own loop.
    func apply(to registry: ControllerRegistry, log: RoutingLog) {
        registry.configure = { [self] c in configure(c, registry: registry) }
        registry.segueFailed = { parent, segue, failure in
            log.record(RoutingRecord(
                host: log.host, at: parent.rawValue, source: parent.rawValue, target: segue.destination.rawValue,
                kind: "segue", outcome: .rejected, via: "", reason: failure.description))
        }
    }

    private func configure(_ c: ViewController, registry: ControllerRegistry) {
        // A stand-in gets nothing: its controller, where it is made, gets its data and
        // segues (a process child from its host's arguments, an actor child here).
        if c is RemoteController { return }
        if let d = data[c.id] { c.embedData = d }
        if let s = segues[c.id] { c.setEmbedSegues(s, registry: registry) }
    }
}
