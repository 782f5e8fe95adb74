import Foundation
import TrellisCanvas
import TrellisWire
import Yams

/// A problem in a view file, located precisely enough to fix without guessing.
public struct ViewFileError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var field: String?
    public var message: String
    public var description: String {
        let at = line.map { "\(file):\($0)" } ?? file
        return "\(at): \(field.map { "\($0): " } ?? "")\(message)"
    }
}

/// Loads views from declarative view files — Trellis's xibs (S2-1).
///
/// A view file is YAML named `NAME.view.yaml`: one view with its class, attributes and
/// subviews; a subview may be another file (`file: NAME`), loaded with its own awake
/// pass. The format is in docs/VIEWS.md. Classes are looked up by name among those
/// registered; the built-in ones are always there.
public final class ViewFileLoader {
    public let directory: URL
    private var classes: [String: View.Type] = [
        "View": View.self, "Label": Label.self, "Button": Button.self,
        "ScrollView": ScrollView.self, "PageControl": PageControl.self, "TextField": TextField.self,
        "TextView": TextView.self,
        "KeyCommandFooter": KeyCommandFooter.self,
    ]
    private var loading: [String] = []
    /// `load(yaml:)` calls in progress, the outermost one's included; and the views
    /// they have built so far.
    private var loads = 0
    private var built = 0

    /// The most views one load may build, its included files' counted. A YAML alias
    /// repeats a whole subtree each time it is named, so a few hundred bytes can ask
    /// for millions of views; no terminal shows a fraction of this many.
    public static let maxViews = 10_000

    /// The largest number in a frame, either way: a surface is at most this wide
    /// (frames carry sizes as u16), and drawing adds origins and sizes, which from
    /// numbers near `Int.max` overflowed and stopped the app.
    public static let maxCells = Int(UInt16.max)

    public init(directory: URL) { self.directory = directory }

    /// Makes `type` available to files as `name` (default: its type name).
    public func register(_ type: View.Type, as name: String? = nil) {
        classes[name ?? String(describing: type)] = type
    }

    /// Loads `NAME.view.yaml` from the directory.
    public func load(named name: String) throws(ViewFileError) -> View {
        let file = "\(name).view.yaml"
        guard !loading.contains(name) else {
            throw ViewFileError(file: file, line: nil, field: "file", message: "includes itself through \(loading.joined(separator: " → ")) → \(name)")
        }
        let url = directory.appendingPathComponent(file)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ViewFileError(file: file, line: nil, field: nil, message: "no such view file in \(directory.path)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ViewFileError(file: file, line: nil, field: nil, message: "not UTF-8 text")
        }
        return try load(yaml: text, file: file, name: name)
    }

    /// Loads a view from YAML text; `file` names it in errors.
    public func load(yaml text: String, file: String, name: String? = nil) throws(ViewFileError) -> View {
        let node: Node?
        do { node = try ScalarKeyedYAML.compose(text) } catch let refusal as ScalarKeyedYAML.Refusal {
            throw ViewFileError(file: file, line: refusal.line, field: nil, message: refusal.message)
        } catch {
            throw ViewFileError(file: file, line: Self.line(of: error), field: nil, message: "not valid YAML: \(error)")
        }
        guard let node else { throw ViewFileError(file: file, line: nil, field: nil, message: "the file is empty") }
        if loads == 0 { built = 0 }
        loads += 1
        defer { loads -= 1 }
        if let name { loading.append(name) }
        defer { if name != nil { loading.removeLast() } }
        var created: [View] = []
        let (view, _) = try build(node, file: file, created: &created)
        for v in created { v.awakeFromFile() }
        return view
    }

    private static func line(of error: any Error) -> Int? {
        if let e = error as? YamlError, case .scanner(_, _, let mark, _) = e { return mark.line }
        if let e = error as? YamlError, case .parser(_, _, let mark, _) = e { return mark.line }
        return nil
    }

    /// Builds one view; appends the views this file created in awake order (post-order).
    /// `fill: true` asks to be pinned to the superview's edges once added.
    private func build(_ node: Node, file: String, created: inout [View]) throws(ViewFileError) -> (View, Bool) {
        func fail(_ n: Node, _ field: String?, _ message: String) -> ViewFileError {
            ViewFileError(file: file, line: n.mark?.line, field: field, message: message)
        }
        guard case .mapping(let mapping) = node else { throw fail(node, nil, "a view is a mapping of fields") }
        var fields: [String: Node] = [:]
        for (k, v) in mapping {
            guard let key = k.string else { throw fail(k, nil, "field names are strings") }
            fields[key] = v
        }
        if let include = fields["file"] {
            guard fields.count == 1 else { throw fail(node, "file", "an included file takes no other fields") }
            guard let name = include.string, !name.isEmpty else { throw fail(include, "file", "expected a view file name") }
            do { return (try load(named: name), false) } catch {
                throw ViewFileError(file: file, line: include.mark?.line, field: "file", message: "in \(name): \(error)")
            }
        }
        guard let classNode = fields["class"] else { throw fail(node, "class", "missing: every view names its class") }
        guard let className = classNode.string, let type = classes[className] else {
            throw fail(classNode, "class", "unknown view class \(classNode.string.map { "'\($0)'" } ?? "") (known: \(classes.keys.sorted().joined(separator: ", ")))")
        }
        built += 1
        guard built <= Self.maxViews else {
            throw fail(node, nil, "more than \(Self.maxViews) views in one load (with its includes, and each use of a YAML alias counted)")
        }
        let view = type.init(frame: .zero)
        var subviewNodes: [Node] = []
        var fill = false
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            func string() throws(ViewFileError) -> String {
                guard let s = value.string, case .scalar = value else { throw fail(value, key, "expected text") }
                return s
            }
            func int() throws(ViewFileError) -> Int {
                guard let i = value.wholeNumber else { throw fail(value, key, "expected a whole number") }
                return i
            }
            func bool() throws(ViewFileError) -> Bool {
                guard case .scalar = value, let b = value.bool else { throw fail(value, key, "expected true or false") }
                return b
            }
            func color() throws(ViewFileError) -> CellColor {
                guard let c = ColorName.parse(try string()) else {
                    throw fail(value, key, "unknown colour '\(value.string ?? "")' (a name like blue, a palette index 0-255, or #rrggbb)")
                }
                return c
            }
            switch key {
            case "class": continue
            case "identifier": view.identifier = try string()
            case "frame":
                guard case .sequence(let s) = value, s.count == 4, let n = Optional(s.compactMap(\.wholeNumber)), n.count == 4 else {
                    throw fail(value, key, "expected [x, y, width, height] in cells")
                }
                guard n[2] >= 0, n[3] >= 0 else { throw fail(value, key, "width and height cannot be negative") }
                guard n.allSatisfy({ (-Self.maxCells...Self.maxCells).contains($0) }) else {
                    throw fail(value, key, "each number is at most \(Self.maxCells) cells either way")
                }
                view.frame = Rect(x: n[0], y: n[1], width: n[2], height: n[3])
            case "background": view.backgroundColor = try color()
            case "foreground": view.foregroundColor = try color()
            case "borderColor": view.borderColor = try color()
            case "border":
                guard let b = BorderStyle(rawValue: try string()) else {
                    throw fail(value, key, "unknown border (one of \(BorderStyle.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                view.border = b
            case "hidden": view.isHidden = try bool()
            case "interactive": view.isUserInteractionEnabled = try bool()
            case "clips": view.clipsToBounds = try bool()
            case "cornerRadius": view.cornerRadius = try int()
            case "tag": view.tag = try int()
            case "text":
                if let field = view as? TextField {
                    field.text = try string()
                } else if let textView = view as? TextView {
                    textView.text = try string()
                } else if let label = view as? Label {
                    label.text = try string()
                } else {
                    throw fail(value, key, "only a Label, a TextField or a TextView has text")
                }
            case "editable":
                guard let textView = view as? TextView else { throw fail(value, key, "only a TextView is editable or not") }
                textView.isEditable = try bool()
            case "placeholder":
                guard let field = view as? TextField else { throw fail(value, key, "only a TextField has a placeholder") }
                field.placeholder = try string()
            case "secure":
                guard let field = view as? TextField else { throw fail(value, key, "only a TextField has secure entry") }
                field.isSecureTextEntry = try bool()
            case "alignment":
                guard let label = view as? Label, let a = Label.Alignment(rawValue: try string()) else {
                    throw fail(value, key, "a Label's alignment is left, center or right")
                }
                label.alignment = a
            case "lines":
                guard let label = view as? Label else { throw fail(value, key, "only a Label has lines") }
                let n = try int()
                guard n >= 0 else { throw fail(value, key, "lines cannot be negative (0: as many as the text needs)") }
                label.numberOfLines = n
            case "lineBreak":
                guard let label = view as? Label, let mode = LineBreakMode(rawValue: try string()) else {
                    throw fail(value, key, "a Label's lineBreak is one of \(LineBreakMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                label.lineBreakMode = mode
            case "title":
                guard let button = view as? Button else { throw fail(value, key, "only a Button has a title") }
                button.title = try string()
            case "fill": fill = try bool()
            case "subviews":
                guard case .sequence(let s) = value else { throw fail(value, key, "expected a list of views") }
                subviewNodes = Array(s)
            default:
                throw fail(value, key, "unknown field")
            }
        }
        for sub in subviewNodes {
            let (child, fills) = try build(sub, file: file, created: &created)
            view.addSubview(child)
            if fills { child.pinEdges(to: view) }
        }
        created.append(view)
        return (view, fill)
    }
}
