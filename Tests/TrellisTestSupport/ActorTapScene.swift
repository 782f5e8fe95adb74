import Foundation

/// The scene the session tests of an actor child start (issue 20, 21): the Tap classes'
/// Root ▸ Middle, an actor, ▸ Leaf, placed as the test asks — written to `path`.
enum ActorTapScene {
    static func write(to path: String, leaf: String) throws {
        try """
            size: 40x10
            controllers:
              - id: Root
                class: TapRoot
              - id: Middle
                class: TapMiddle
                parent: Root
                placement: actor
              - id: Leaf
                class: TapLeaf
                parent: Middle
                placement: \(leaf)
            """.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
