import Foundation
import Synchronization
import TrellisCanvas
import TrellisViews

/// Seed 002's view files — the article's xibs — and the classes they name (S2-1).
///
/// The files are Swift string constants rather than package resources: the app binary
/// is started from wherever the supervisor puts it, and text compiled in cannot go
/// missing. `ViewFileLoader` reads files from a directory (an included file is found
/// by name there), so each load writes them to a private temporary directory first.
public enum Seed002ViewFiles {
    /// `NAME.view.yaml` text by NAME.
    public static let files: [String: String] = [
        "CustomButton": """
            # The article's CustomButton: a button whose content is another file's view.
            class: CustomButton
            identifier: customButton
            frame: [0, 0, 20, 3]
            border: rounded
            background: blue
            foreground: brightWhite
            subviews:
              - file: ExtendLabel
            """,
        "ExtendLabel": """
            # The article's ExtendLabel: a view holding the label that shows the title.
            class: ExtendLabel
            identifier: extendLabel
            frame: [1, 1, 18, 1]
            background: blue
            subviews:
              - class: Label
                identifier: label
                text: "ボタンです"
                alignment: center
                background: blue
                foreground: brightWhite
                fill: true
            """,
    ]

    /// Loads `name` with the seed's classes registered. Any failure is described in the
    /// error: the file, the line and the field for a file the loader refuses.
    public static func load(named name: String) throws -> View {
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("trellis-views-\(UUID().uuidString)")
        try fm.createDirectory(at: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? fm.removeItem(at: dir) }
        for (file, text) in files {
            try text.write(to: dir.appendingPathComponent("\(file).view.yaml"), atomically: true, encoding: .utf8)
        }
        let loader = ViewFileLoader(directory: dir)
        loader.register(CustomButton.self, as: "CustomButton")
        loader.register(ExtendLabel.self, as: "ExtendLabel")
        return try loader.load(named: name)
    }
}

/// Records what the seed-002 views hear while a file builds them (S2-2's
/// `CustomButton.init, ExtendLabel.init, ExtendLabel.awakeFromFile,
/// CustomButton.awakeFromFile`). A view made by a file cannot be handed a recorder, so
/// the views write to the one `collecting` installs for the length of a load; outside
/// one, nothing is kept.
public enum CreationTrace {
    /// The load under way's record: task-local, not a static, since a load is synchronous
    /// on its tree's thread and trees on other threads load apart.
    @TaskLocal private static var entries: Entries?

    static func record(_ entry: String) { entries?.kept.withLock { $0.append(entry) } }

    /// Runs `body` and returns its result with what was recorded meanwhile.
    public static func collecting<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        let collected = Entries()
        let result = try $entries.withValue(collected) { try body() }
        return (result, collected.kept.withLock { $0 })
    }

    private final class Entries: Sendable {
        let kept = Mutex<[String]>([])
    }
}

/// The article's CustomButton: made by its view file, it reports its init and its
/// awake (S2-2).
public final class CustomButton: Button {
    public required init(frame: Rect = .zero) {
        super.init(frame: frame)
        CreationTrace.record("CustomButton.init")
    }

    public override func awakeFromFile() {
        super.awakeFromFile()
        CreationTrace.record("CustomButton.awakeFromFile")
    }
}

/// The article's ExtendLabel, included by CustomButton's file.
public final class ExtendLabel: View {
    public required init(frame: Rect = .zero) {
        super.init(frame: frame)
        CreationTrace.record("ExtendLabel.init")
    }

    public override func awakeFromFile() {
        super.awakeFromFile()
        CreationTrace.record("ExtendLabel.awakeFromFile")
    }
}
