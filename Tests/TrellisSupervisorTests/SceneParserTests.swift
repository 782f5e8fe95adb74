import Testing
import TrellisCanvas
@testable import TrellisSupervisor

/// Scene files: a well-formed one reads as declared; every broken one is refused
/// before anything starts, naming the file, the line and the field.
@Suite struct SceneParserTests {
    static let good = """
        app: trellis-app
        size: 100x30
        restart:
          strategy: one-for-all
          intensity: 2
          period: 4.5
          hang: 1.5
        controllers:
          - id: Root
            class: DemoTabs
          - id: Seed001
            class: Seed001
            parent: Root
            placement: process
            embed: tabContent
            data:
              title: embed
          - id: Detail
            class: Detail
            parent: Seed001
            placement: actor
          - id: Footer
            class: Footer
            parent: Root
            placement: inline
        """

    @Test func aWellFormedSceneReadsAsDeclared() throws {
        let scene = try Scene.parse(Self.good, file: "demo.yaml")
        #expect(scene.size == Size(width: 100, height: 30))
        #expect(scene.strategy == .oneForAll && scene.intensity == 2 && scene.period == 4.5 && scene.hang == 1.5)
        #expect(scene.controllers.map(\.id.rawValue) == ["Root", "Seed001", "Detail", "Footer"])
        // Issue 20: an actor and an inline child both run in their parent's process.
        #expect(scene.controllers[2].placement == .actor && scene.controllers[3].placement == .inline)
        #expect(scene.processOwner(of: scene.controllers[2]).id == "Seed001")
        #expect(scene.processOwner(of: scene.controllers[3]).id == "Root")
        #expect(scene.processes.map(\.id.rawValue) == ["Root", "Seed001"])
        #expect(scene.root.className == "DemoTabs")
        let seed = scene.controllers[1]
        #expect(seed.parent == "Root" && seed.placement == .process && seed.embed == "tabContent")
        #expect(seed.data == ["title": "embed"])
        #expect(seed.line == 11)
        // An actor runs in its parent's process: Detail's process is Seed001's.
        #expect(scene.processOwner(of: scene.controllers[2]).id == "Seed001")
        #expect(scene.processes.map(\.id.rawValue) == ["Root", "Seed001"])
        // What restarts with a process (issue 19, finding 3): the processes below it.
        #expect(scene.processDescendants(of: "Root") == ["Seed001"])
        #expect(scene.processDescendants(of: "Seed001").isEmpty)
    }

    @Test func defaultsAreOneForOneThreeRestartsInFiveSecondsAt80x24() throws {
        let scene = try Scene.parse("controllers:\n  - id: A\n    class: X\n", file: "s.yaml")
        #expect(scene.strategy == .oneForOne && scene.intensity == 3 && scene.period == 5 && scene.hang == 2)
        #expect(scene.size == Size(width: 80, height: 24) && scene.app == "trellis-app")
    }

    /// (source, line, field, words the message must contain)
    static let broken: [(String, Int?, String?, String)] = [
        ("size: 80x24\n  controllers: x: y\n", 2, nil, "not valid YAML"),
        ("- a\n- b\n", 1, nil, "a scene is a mapping"),
        ("size: 80x24\n", 1, "controllers", "missing"),
        ("colour: red\ncontrollers: []\n", 1, "colour", "unknown field"),
        ("controllers: []\n", 1, "controllers", "non-empty list"),
        ("controllers:\n  - just text\n", 2, "controllers", "each controller is a mapping"),
        ("controllers:\n  - class: X\n", 2, "id", "missing"),
        ("controllers:\n  - id: A\n", 2, "class", "missing"),
        ("controllers:\n  - id: has space\n    class: X\n", 2, "id", "not a controller id"),
        ("controllers:\n  - id: A\n    class: X\n  - id: A\n    class: Y\n    parent: A\n", 4, "id", "declared twice"),
        ("controllers:\n  - id: A\n    class: X\n  - id: B\n    class: Y\n    parent: Z\n", 6, "parent", "not declared above"),
        ("controllers:\n  - id: A\n    class: X\n  - id: B\n    class: Y\n", 4, "parent", "only the first controller"),
        ("controllers:\n  - id: A\n    class: X\n    placement: thread\n", 4, "placement", "one of process, actor, inline"),
        ("controllers:\n  - id: A\n    class: X\n    placement: actor\n", 2, "placement", "own process"),
        ("controllers:\n  - id: A\n    class: X\n    placement: inline\n", 2, "placement", "own process"),
        ("controllers:\n  - id: A\n    class: X\n    host: far.example\n", 4, "host", "only 'local'"),
        ("controllers:\n  - id: A\n    class: X\n    data: [1, 2]\n", 4, "data", "mapping"),
        ("controllers:\n  - id: A\n    class: X\n    data:\n      k: [1]\n", 5, "data", "values are text"),
        ("controllers:\n  - id: A\n    class: X\n    colour: red\n", 4, "colour", "unknown field"),
        ("controllers:\n  - id: compositor\n    class: X\n", 2, "id", "reserved"),
        // Issue 19 finding 8: the control endpoint tells clients from controllers by this
        // prefix and refuses `-`, so no controller may carry either.
        ("controllers:\n  - id: '-'\n    class: X\n", 2, "id", "reserved"),
        ("controllers:\n  - id: client-1\n    class: X\n", 2, "id", "are control clients'"),
        ("size: huge\ncontrollers:\n  - id: A\n    class: X\n", 1, "size", "COLUMNSxROWS"),
        ("size: 0x10\ncontrollers:\n  - id: A\n    class: X\n", 1, "size", "COLUMNSxROWS"),
        ("restart: always\ncontrollers:\n  - id: A\n    class: X\n", 1, "restart", "expected strategy"),
        ("restart:\n  strategy: rest-for-one\ncontrollers:\n  - id: A\n    class: X\n", 2, "restart.strategy", "one of"),
        ("restart:\n  intensity: -1\ncontrollers:\n  - id: A\n    class: X\n", 2, "restart.intensity", "≥ 0"),
        // A base-60 number past Int's range trapped in Yams' reading of it.
        ("restart:\n  intensity: 9223372036820367:58054:75807\ncontrollers:\n  - id: A\n    class: X\n", 2, "restart.intensity", "≥ 0"),
        ("restart:\n  period: 0\ncontrollers:\n  - id: A\n    class: X\n", 2, "restart.period", "> 0"),
        ("restart:\n  hang: 0.1\ncontrollers:\n  - id: A\n    class: X\n", 2, "restart.hang", "0.5 to 60"),
        ("restart:\n  hang: soon\ncontrollers:\n  - id: A\n    class: X\n", 2, "restart.hang", "0.5 to 60"),
        ("restart:\n  backoff: 2\ncontrollers:\n  - id: A\n    class: X\n", 2, "restart.backoff", "unknown field"),
    ]

    @Test(arguments: broken.indices)
    func aBrokenSceneNamesFileLineAndField(_ i: Int) {
        let (source, line, field, words) = Self.broken[i]
        #expect {
            _ = try Scene.parse(source, file: "bad.yaml")
        } throws: { error in
            guard let e = error as? SceneError else { return false }
            let ok = e.file == "bad.yaml" && e.line == line && e.field == field && e.message.contains(words)
            if !ok { Issue.record("case \(i): got \(e)") }
            return ok && e.description.hasPrefix("bad.yaml\(line.map { ":\($0)" } ?? ""): ")
        }
    }

    /// The `view` fuzz target's alias bomb, as a scene: a key made of nested aliases is
    /// refused before Yams hashes it (`ScalarKeyedYAML`).
    @Test func aliasesInAKeyAreRefusedBeforeTheyAreExpanded() {
        var yaml = "x0: &a0 [1]\n"
        for level in 1...6 { yaml += "x\(level): &a\(level) [\(Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", "))]\n" }
        yaml += "[*a6, *a6]: boom\ncontrollers:\n  - id: A\n    class: X\n"
        #expect {
            _ = try Scene.parse(yaml, file: "bomb.yaml")
        } throws: { error in
            (error as? SceneError)?.message.hasPrefix("a mapping key must be a name") == true
        }
    }

    @Test func garbageBytesAreRefusedNotCrashedOn() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...200, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                _ = try Scene.parse(text, file: "noise.yaml")
            } catch {
                #expect(error.file == "noise.yaml")
            }
        }
    }

    @Test func aMissingFileIsNamed() {
        #expect(throws: SceneError(file: "/nonexistent/scene.yaml", line: nil, field: nil, message: "cannot read the scene file")) {
            _ = try Scene.load(path: "/nonexistent/scene.yaml")
        }
    }
}
