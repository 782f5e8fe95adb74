import Foundation
import Testing

/// Issue 20, "walls where the layers are": Package.swift lists the layers top to bottom
/// in its opening comment, and no target may depend on one listed after it — the
/// compositor does not link the controllers, nor the client the compositor. Read from
/// the manifest's text, so a new arrow upwards fails here before anyone reads the list.
@Suite("Package.swift: every dependency points to a layer above")
struct LayerOrderTests {
    static let manifest: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
    }()

    /// The layer list: `//   Name  what it is` lines before the manifest's first import.
    static func layers(in text: String) -> [String] {
        let header = text.components(separatedBy: "import PackageDescription").first ?? ""
        return header.split(separator: "\n").compactMap { line in
            // A continuation line is indented further: its name column is blank.
            guard line.hasPrefix("//   "), line.dropFirst(5).first != " ",
                  let first = line.dropFirst(5).split(separator: " ").first else { return nil }
            // `Services/trellis-app` names the executable target `trellis-app`.
            return String(first.split(separator: "/").last!)
        }
    }

    /// Each target declaration's name and the targets it depends on (products of other
    /// packages left out).
    static func targets(in text: String) -> [(name: String, dependencies: [String])] {
        var found: [(String, [String])] = []
        var rest = Substring(text)
        while let start = rest.range(of: #"\.(target|executableTarget|testTarget|systemLibrary)\("#, options: .regularExpression) {
            // The declaration runs to its matching parenthesis.
            var depth = 0
            var end = start.upperBound
            var i = text.index(before: start.upperBound)
            while i < text.endIndex {
                if text[i] == "(" { depth += 1 }
                if text[i] == ")" { depth -= 1; if depth == 0 { end = text.index(after: i); break } }
                i = text.index(after: i)
            }
            let declaration = String(text[start.lowerBound..<end])
            rest = text[end...]
            guard let name = declaration.firstMatch(of: /name: "([^"]+)"/)?.1 else { continue }
            var dependencies: [String] = []
            if let list = declaration.firstMatch(of: /dependencies: \[([^\]]*)\]/)?.1 {
                let targetsOnly = list.replacing(/\.product\([^)]*\)/, with: "")
                dependencies = targetsOnly.matches(of: /"([^"]+)"/).map { String($0.1) }
            }
            found.append((String(name), dependencies))
        }
        return found
    }

    @Test("the manifest lists its layers, and every target in the list is declared")
    func theListIsTheManifests() {
        let layers = Self.layers(in: Self.manifest)
        let declared = Set(Self.targets(in: Self.manifest).map(\.name))
        #expect(layers.count > 10, "no layer list read from Package.swift")
        #expect(layers.filter { !declared.contains($0) } == [])
        #expect(layers.contains("TrellisSession") && layers.contains("CPlatform"))
    }

    @Test("no target depends on a layer listed after its own")
    func noArrowPointsUp() {
        let layers = Self.layers(in: Self.manifest)
        let rank = Dictionary(layers.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var upward: [String] = []
        for t in Self.targets(in: Self.manifest) {
            guard let own = rank[t.name] else { continue }
            for d in t.dependencies where (rank[d] ?? -1) >= own { upward.append("\(t.name) -> \(d)") }
        }
        #expect(upward == [])
    }

    /// The order alone would let a layer use any layer listed before it; these pairs
    /// were detours issue 20 removed, each a module linked for one value.
    @Test("the render server links no controllers or views; the client and the supervisor link no layer beside them")
    func theDetoursStayGone() {
        let dependencies = Dictionary(
            Self.targets(in: Self.manifest).map { ($0.name, Set($0.dependencies)) }, uniquingKeysWith: { a, _ in a })
        #expect(dependencies["TrellisCompositor"]?.isDisjoint(with: ["TrellisControllers", "TrellisViews", "TrellisLayout"]) == true)
        #expect(dependencies["TrellisClient"]?.isDisjoint(with: ["TrellisCompositor", "TrellisControllers", "TrellisSupervisor"]) == true)
        #expect(dependencies["TrellisSupervisor"]?.contains("TrellisClient") == false)
        #expect(dependencies["TrellisLog"]?.isDisjoint(with: ["TrellisTransport"]) == true)
    }

    @Test("the check sees an arrow upwards when there is one")
    func anUpwardArrowIsSeen() {
        let text = """
            //   Low   the bottom
            //   High  the top
            import PackageDescription
            .target(name: "Low", dependencies: ["High", .product(name: "X", package: "x")]),
            .target(name: "High", dependencies: ["Low"]),
            """
        #expect(Self.layers(in: text) == ["Low", "High"])
        #expect(Self.targets(in: text).map(\.dependencies) == [["High"], ["Low"]])
    }
}
