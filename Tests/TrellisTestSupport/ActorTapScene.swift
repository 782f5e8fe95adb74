import Foundation

/// The scene of an actor child the session and bring-up tests share (issue 20, 21): the
/// Tap classes' Root ▸ Middle, an actor, ▸ Leaf, placed as the test asks.
public enum ActorTapScene {
    public static func yaml(leaf: String) -> String {
        """
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
        """
    }

    /// `yaml(leaf:)`, written to `path`.
    public static func write(to path: String, leaf: String) throws {
        try yaml(leaf: leaf).write(toFile: path, atomically: true, encoding: .utf8)
    }
}
