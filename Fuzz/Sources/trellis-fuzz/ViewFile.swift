import Foundation
import TrellisCanvas
import TrellisViews

/// A directory with the files an input may include (`file: NAME`), written once: seed
/// 002's two files, as in the corpus, so that includes reach a real file.
let viewDirectory: URL = {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-fuzz-views-\(getpid())")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for (name, text) in includedViewFiles {
        try? text.write(to: dir.appendingPathComponent("\(name).view.yaml"), atomically: true, encoding: .utf8)
    }
    return dir
}()

/// Seed 002's files (Sources/TrellisSeeds/Seed002ViewFiles.swift), which the fuzz
/// package cannot import: TrellisSeeds is not a product.
let includedViewFiles: [String: String] = [
    "ExtendLabel": """
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
    "CustomButton": """
        class: CustomButton
        identifier: customButton
        frame: [0, 0, 20, 3]
        border: rounded
        background: blue
        foreground: brightWhite
        subviews:
          - file: ExtendLabel
        """,
]

/// View files (docs/VIEWS.md), as `ViewFileLoader` reads them after checking UTF-8.
///
/// Contract: a view or a `ViewFileError` with a message, never a trap; and a view the
/// loader accepts can be laid out and drawn in a controller's 80×24 view, as an app
/// would.
func fuzzView(_ input: FuzzInput) {
    guard let text = String(validating: input.bytes, as: UTF8.self) else { return }
    // libFuzzer calls targets on the main thread.
    MainActor.assumeIsolated {
        let loader = ViewFileLoader(directory: viewDirectory)
        loader.register(Button.self, as: "CustomButton")
        loader.register(View.self, as: "ExtendLabel")
        do throws(ViewFileError) {
            let view = try loader.load(yaml: text, file: "fuzz.view.yaml")
            let root = View(frame: Rect(x: 0, y: 0, width: 80, height: 24))
            root.addSubview(view)
            root.layoutIfNeeded()
            var surface = Surface(size: root.bounds.size)
            ViewRenderer.render(root, into: &surface)
        } catch {
            contract(!error.message.isEmpty, "a view file error without a message: \(error)")
        }
    }
}
