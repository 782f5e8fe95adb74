import Foundation
import TrellisCanvas
import TrellisViews

/// The directory an input's includes (`file: NAME`) are read from: the view corpus in
/// the repository (Fuzz/Corpus/view), which holds seed 002's two files (those of
/// Sources/TrellisSeeds/Seed002ViewFiles.swift, less their comments), so that includes
/// reach a real file.
/// deploy/fuzz runs the target on a copy of the corpus and never changes this one.
let viewDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Corpus/view")

/// View files (docs/VIEWS.md), as `ViewFileLoader` reads them after checking UTF-8.
///
/// Contract: a view or a `ViewFileError` with a message, never a trap; and a view the
/// loader accepts can be laid out and drawn in a controller's 80×24 view, as an app
/// would.
func fuzzView(_ input: FuzzInput) {
    guard let text = String(validating: input.bytes, as: UTF8.self) else { return }
    // Views belong to no actor: the tree is this call's, made and dropped here.
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
