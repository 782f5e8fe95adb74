import Foundation
import TrellisCanvas
import TrellisViews
import TrellisWire
import Yams

extension Scene {
    /// Reads and checks a scene file; every problem names the file, line and field.
    public static func load(path: String) throws(SceneError) -> Scene {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SceneError(file: path, line: nil, field: nil, message: "cannot read the scene file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SceneError(file: path, line: nil, field: nil, message: "not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ source: String, file: String) throws(SceneError) -> Scene {
        func fail(_ node: Node?, _ field: String?, _ message: String) -> SceneError {
            SceneError(file: file, line: node?.mark?.line, field: field, message: message)
        }
        let top: Node?
        do { top = try ScalarKeyedYAML.compose(source) } catch let refusal as ScalarKeyedYAML.Refusal {
            throw SceneError(file: file, line: refusal.line, field: nil, message: refusal.message)
        } catch {
            var line: Int?
            if let e = error as? YamlError {
                switch e {
                case .scanner(_, _, let mark, _), .parser(_, _, let mark, _): line = mark.line
                default: break
                }
            }
            throw SceneError(file: file, line: line, field: nil, message: "not valid YAML: \(error)")
        }
        guard let top, case .mapping(let m) = top else { throw fail(top, nil, "a scene is a mapping with `controllers:`") }
        var fields: [String: Node] = [:]
        for (k, v) in m {
            guard let key = k.string else { throw fail(k, nil, "field names are text") }
            guard ["app", "controllers", "restart", "size"].contains(key) else {
                throw fail(k, key, "unknown field (known: app, controllers, restart, size)")
            }
            fields[key] = v
        }
        func text(_ n: Node, _ field: String) throws(SceneError) -> String {
            guard case .scalar = n, let s = n.string, !s.isEmpty else { throw fail(n, field, "expected text") }
            return s
        }
        let app = try fields["app"].map { n throws(SceneError) in try text(n, "app") } ?? "trellis-app"
        var size = Size(width: 80, height: 24)
        if let n = fields["size"] {
            let parts = try text(n, "size").split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, Size(width: parts[0], height: parts[1]).isScreenSize else {
                throw fail(n, "size", "expected COLUMNSxROWS like 80x24, each \(Size.screenSides.lowerBound)…\(Size.screenSides.upperBound)")
            }
            size = Size(width: parts[0], height: parts[1])
        }
        var strategy = RestartStrategy.oneForOne, intensity = 3, period = 5.0, hang = 2.0
        if let r = fields["restart"] {
            guard case .mapping(let rm) = r else { throw fail(r, "restart", "expected strategy, intensity, period, hang") }
            for (k, v) in rm {
                let key = k.string ?? ""
                switch key {
                case "strategy":
                    guard let s = RestartStrategy(rawValue: try text(v, "restart.strategy")) else {
                        throw fail(v, "restart.strategy", "one of \(RestartStrategy.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    strategy = s
                case "intensity":
                    guard let i = v.wholeNumber, i >= 0 else { throw fail(v, "restart.intensity", "expected a whole number ≥ 0") }
                    intensity = i
                case "period":
                    guard let p = v.float ?? v.wholeNumber.map(Double.init), p > 0 else { throw fail(v, "restart.period", "expected seconds > 0") }
                    period = p
                case "hang":
                    // Under the pulse interval every process would look hung; past a minute
                    // a hang is a frozen screen nobody waits out.
                    guard let h = v.float ?? v.wholeNumber.map(Double.init), h >= 0.5, h <= 60 else {
                        throw fail(v, "restart.hang", "expected seconds from 0.5 to 60")
                    }
                    hang = h
                default:
                    throw fail(k, "restart.\(key)", "unknown field (known: strategy, intensity, period, hang)")
                }
            }
        }
        guard let list = fields["controllers"] else { throw fail(top, "controllers", "missing: a scene declares its controllers") }
        guard case .sequence(let seq) = list, !seq.isEmpty else { throw fail(list, "controllers", "expected a non-empty list") }
        var controllers: [Controller] = []
        for item in seq {
            guard case .mapping(let cm) = item else { throw fail(item, "controllers", "each controller is a mapping") }
            var id: ControllerID?, cls: String?, parent: ControllerID?, placement = Placement.process
            var host = "local", embed: String?, data: [String: String] = [:], classLine: Int?
            for (k, v) in cm {
                let key = k.string ?? ""
                switch key {
                case "id":
                    guard let c = ControllerID(try text(v, "id")) else {
                        throw fail(v, "id", "'\(v.string ?? "")' is not a controller id (1-32 of A-Z a-z 0-9 . _ : -)")
                    }
                    guard !controllers.contains(where: { $0.id == c }) else { throw fail(v, "id", "'\(c)' is declared twice") }
                    guard !c.isReserved else { throw fail(v, "id", "'\(c)' is reserved") }
                    guard !c.isClientID else {
                        throw fail(v, "id", "'\(c)': ids beginning with '\(ControllerID.clientPrefix)' are control clients'")
                    }
                    id = c
                case "class":
                    cls = try text(v, "class")
                    classLine = v.mark?.line
                case "parent":
                    guard let p = ControllerID(try text(v, "parent")) else { throw fail(v, "parent", "not a controller id") }
                    guard controllers.contains(where: { $0.id == p }) else {
                        throw fail(v, "parent", "'\(p)' is not declared above (parents come before their children)")
                    }
                    parent = p
                case "placement":
                    guard let pl = Placement(rawValue: try text(v, "placement")) else {
                        throw fail(v, "placement", "one of \(Placement.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    placement = pl
                case "host":
                    host = try text(v, "host")
                    guard host == "local" else { throw fail(v, "host", "only 'local' runs today (multi-machine placement is not built)") }
                case "embed": embed = try text(v, "embed")
                case "data":
                    guard case .mapping(let dm) = v else { throw fail(v, "data", "expected a mapping of names to values") }
                    for (dk, dv) in dm {
                        guard let name = dk.string, case .scalar = dv, let value = dv.string else { throw fail(dv, "data", "values are text") }
                        data[name] = value
                    }
                default:
                    throw fail(k, key, "unknown field (known: id, class, parent, placement, host, embed, data)")
                }
            }
            guard let id else { throw fail(item, "id", "missing: every controller has an id") }
            guard let cls else { throw fail(item, "class", "missing: every controller names its class") }
            if parent == nil, controllers.contains(where: { $0.parent == nil }) {
                throw fail(item, "parent", "missing: only the first controller (the root) has no parent")
            }
            if parent == nil, placement != .process { throw fail(item, "placement", "the root runs in its own process") }
            controllers.append(Controller(
                id: id, className: cls, parent: parent, placement: parent == nil ? .process : placement, host: host,
                embed: embed, data: data, line: item.mark?.line ?? 0, classLine: classLine ?? item.mark?.line ?? 0))
        }
        return Scene(
            file: file, app: app, appLine: fields["app"]?.mark?.line, controllers: controllers, strategy: strategy, intensity: intensity, period: period, hang: hang,
            size: size)
    }
}
