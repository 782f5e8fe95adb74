import TrellisSupervisor

/// Scene files (docs/SCENES.md), as `trellis up` reads them after checking UTF-8.
///
/// Contract: a scene or a `SceneError` with a message, never a trap; and a scene the
/// parser accepts is one the supervisor can start: a root first, ids unique, every
/// parent declared before its children, a size in 1…1000.
func fuzzScene(_ input: FuzzInput) {
    guard let text = String(validating: input.bytes, as: UTF8.self) else { return }
    let scene: Scene
    do { scene = try Scene.parse(text, file: "fuzz.yaml") } catch {
        contract(!error.message.isEmpty, "a scene error without a message: \(error)")
        return
    }
    contract(!scene.controllers.isEmpty, "a scene with no controllers")
    contract(scene.controllers[0].parent == nil, "the first controller has a parent")
    var seen: Set<String> = []
    for c in scene.controllers {
        if let parent = c.parent {
            contract(seen.contains(parent.rawValue), "\(c.id)'s parent \(parent) is not declared above it")
        }
        contract(seen.insert(c.id.rawValue).inserted, "\(c.id) is declared twice")
    }
    contract((1...1000).contains(scene.size.width) && (1...1000).contains(scene.size.height), "size \(scene.size)")
}
