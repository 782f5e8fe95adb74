import Foundation
import Testing
@testable import TrellisSupervisor

/// Issue 21: a scene's `app:` names any app binary — a path relative to the scene file,
/// an absolute path, or a name beside `trellis` or on `PATH` — and a miss says where it
/// looked. The binaries here are shell scripts: finding one does not run it.
@Suite struct SceneBinariesTests {
    /// A scratch directory: `trellis/` holds what `swift build` puts beside trellis,
    /// `scenes/` the scene file, `bin/` a directory of PATH.
    final class Layout {
        let root: URL
        var trellis: URL { root.appendingPathComponent("trellis") }
        var scenes: URL { root.appendingPathComponent("scenes") }
        var bin: URL { root.appendingPathComponent("bin") }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("scene-binaries-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            for d in [trellis, scenes, bin] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
            try executable(trellis.appendingPathComponent("trellis-compositor"))
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        /// A script that prints `classes`, one per line, whatever it is asked.
        func executable(_ url: URL, classes: [String] = []) throws {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let script = "#!/bin/sh\n" + classes.map { "echo \($0)\n" }.joined()
            try script.write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }

        func scene(app: String) throws -> Scene {
            let file = scenes.appendingPathComponent("dash.yaml").path
            return try Scene.parse("app: \(app)\ncontrollers:\n  - id: Root\n    class: Counter\n", file: file)
        }

        func locate(_ app: String, path: String? = nil) throws -> URL {
            try SceneBinaries.locate(for: scene(app: app), besideTrellis: trellis, searchPath: path ?? bin.path).app
        }
    }

    @Test func aPathIsRelativeToTheSceneFile() throws {
        let l = try Layout()
        try l.executable(l.root.appendingPathComponent("build/dash"))
        #expect(try l.locate("../build/dash") == l.root.appendingPathComponent("build/dash").standardizedFileURL)
    }

    @Test func anAbsolutePathIsTakenAsItIs() throws {
        let l = try Layout()
        let app = l.root.appendingPathComponent("elsewhere/dash")
        try l.executable(app)
        #expect(try l.locate(app.path) == app)
    }

    @Test func aNameIsLookedForBesideTrellisThenOnPath() throws {
        let l = try Layout()
        try l.executable(l.bin.appendingPathComponent("dash"))
        #expect(try l.locate("dash") == l.bin.appendingPathComponent("dash"))
        try l.executable(l.trellis.appendingPathComponent("dash"))
        #expect(try l.locate("dash") == l.trellis.appendingPathComponent("dash"))
    }

    @Test func aMissingNameSaysWhereItLooked() throws {
        let l = try Layout()
        #expect {
            _ = try l.locate("dash", path: "\(l.bin.path):/nonexistent")
        } throws: { error in
            let text = "\(error)"
            return text.contains("dash.yaml:1: app: no executable 'dash' beside trellis (\(l.trellis.path))")
                && text.contains("PATH: \(l.bin.path):/nonexistent")
        }
    }

    @Test func aMissingPathSaysWhatItWasRelativeTo() throws {
        let l = try Layout()
        #expect {
            _ = try l.locate("build/dash")
        } throws: { error in
            "\(error)".contains("\(l.scenes.appendingPathComponent("build/dash").path) (relative to the scene file's directory, \(l.scenes.path)) is not an executable file")
        }
    }

    @Test func aDirectoryIsNotAnApp() throws {
        let l = try Layout()
        #expect(throws: SceneError.self) { _ = try l.locate(l.bin.path) }
    }

    @Test func aClassTheAppDoesNotHaveIsRefusedWithItsLine() throws {
        let l = try Layout()
        try l.executable(l.bin.appendingPathComponent("dash"), classes: ["Log"])
        let scene = try l.scene(app: "dash")
        let binaries = try SceneBinaries.locate(for: scene, besideTrellis: l.trellis, searchPath: l.bin.path)
        #expect {
            try binaries.checkClasses(of: scene)
        } throws: { error in
            "\(error)".contains("dash.yaml:4: class: \(l.bin.path)/dash has no controller class 'Counter' (known: Log)")
        }
    }

    @Test func withoutTheCompositorBesideTrellisNothingIsFound() throws {
        let l = try Layout()
        try FileManager.default.removeItem(at: l.trellis.appendingPathComponent("trellis-compositor"))
        #expect {
            _ = try l.locate("dash")
        } throws: { error in
            "\(error)".contains("trellis-compositor is not built")
        }
    }
}
