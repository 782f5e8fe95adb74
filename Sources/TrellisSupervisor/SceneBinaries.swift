import Foundation

/// The executables a scene runs, found and checked before anything of the session is
/// created (issue 21): the app, wherever the scene says it is, and the compositor,
/// which comes with `trellis`.
///
/// `app:` is a path when it holds a `/` — absolute, or relative to the directory of the
/// scene file, so a scene and the app it names move together — and otherwise a name,
/// looked for beside `trellis` (where `swift build` puts the seeds' `trellis-app`) and
/// then in each directory of `PATH`, as a shell looks for a command. A miss says every
/// place it looked.
public struct SceneBinaries: Equatable, Sendable {
    public var app: URL
    public var compositor: URL

    public init(app: URL, compositor: URL) {
        self.app = app
        self.compositor = compositor
    }

    /// Finds the binaries of `scene`; `besideTrellis` is the directory of the running
    /// `trellis`, `searchPath` a `PATH` value (nil: not set).
    public static func locate(
        for scene: Scene, besideTrellis: URL,
        searchPath: String? = ProcessInfo.processInfo.environment["PATH"]
    ) throws(SceneError) -> SceneBinaries {
        let compositor = besideTrellis.appendingPathComponent("trellis-compositor")
        guard isExecutable(compositor) else {
            throw SceneError(file: scene.file, line: nil, field: nil,
                             message: "\(compositor.path) is not built (run `swift build` in the Trellis package)")
        }
        return SceneBinaries(
            app: try locateApp(scene.app, scene: scene, besideTrellis: besideTrellis, searchPath: searchPath),
            compositor: compositor)
    }

    private static func locateApp(
        _ app: String, scene: Scene, besideTrellis: URL, searchPath: String?
    ) throws(SceneError) -> URL {
        func refuse(_ message: String) -> SceneError {
            SceneError(file: scene.file, line: scene.appLine, field: "app", message: message)
        }
        if app.contains("/") {
            let sceneDirectory = URL(fileURLWithPath: scene.file).deletingLastPathComponent()
            let url = app.hasPrefix("/")
                ? URL(fileURLWithPath: app)
                : URL(fileURLWithPath: app, relativeTo: sceneDirectory).standardizedFileURL
            guard isExecutable(url) else {
                let how = app.hasPrefix("/") ? "" : " (relative to the scene file's directory, \(sceneDirectory.standardizedFileURL.path))"
                throw refuse("\(url.path)\(how) is not an executable file")
            }
            return url
        }
        var places = [besideTrellis.path]
        if let searchPath {
            // An empty entry of PATH is the working directory, as for a shell.
            places += searchPath.split(separator: ":", omittingEmptySubsequences: false).map { $0.isEmpty ? "." : String($0) }
        }
        for place in places {
            let url = URL(fileURLWithPath: place).appendingPathComponent(app)
            if isExecutable(url) { return url }
        }
        let path = searchPath.map { $0.isEmpty ? "PATH is empty" : "PATH: \($0)" } ?? "PATH is not set"
        throw refuse("no executable '\(app)' beside trellis (\(besideTrellis.path)) or on PATH (\(path)); "
            + "a path to it, absolute or relative to the scene file, holds a '/'")
    }

    private static func isExecutable(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: url.path)
    }

    /// Checks every `class:` of `scene` against what the app registers (`APP classes`):
    /// a misspelt class would otherwise only show as a host that exits at once, again
    /// and again, until the restart policy gives up.
    public func checkClasses(of scene: Scene) throws(SceneError) {
        let known = try appClasses(scene: scene)
        for c in scene.controllers where !known.contains(c.className) {
            throw SceneError(file: scene.file, line: c.classLine, field: "class",
                             message: "\(app.path) has no controller class '\(c.className)' (known: \(known.sorted().joined(separator: ", ")))")
        }
    }

    /// `APP classes`: one registered class per line.
    private func appClasses(scene: Scene) throws(SceneError) -> Set<String> {
        let p = Process()
        p.executableURL = app
        p.arguments = ["classes"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch {
            throw SceneError(file: scene.file, line: scene.appLine, field: "app", message: "cannot run \(app.path) classes: \(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw SceneError(file: scene.file, line: scene.appLine, field: "app",
                             message: "\(app.path) classes exited with status \(p.terminationStatus): is it a Trellis app binary (TrellisApp.main)?")
        }
        return Set(String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }
}
