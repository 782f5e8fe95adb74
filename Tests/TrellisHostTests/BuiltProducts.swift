import Foundation

/// The package these tests belong to, and the executables `swift build` made in it:
/// the multi-process tests start the real `trellis`, `trellis-app` and
/// `trellis-compositor`, never stand-ins.
enum BuiltProducts {
    /// The directory that holds Package.swift.
    static let package: String = {
        var dir = URL(fileURLWithPath: #filePath)
        while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            dir.deleteLastPathComponent()
        }
        return dir.path
    }()

    /// The debug build of `name`, else the release one.
    static func binary(_ name: String) throws -> URL {
        for config in ["debug", "release"] {
            let candidate = URL(fileURLWithPath: "\(package)/.build/\(config)/\(name)")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(name) is not built: run `swift build` first"])
    }
}
