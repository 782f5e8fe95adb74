import TrellisWire

/// A key a responder answers with an action, titled for people (UIKit's `UIKeyCommand`,
/// Textual's `Binding`).
///
/// A responder lists its commands in `keyCommands`. A press travelling up the responder
/// chain is offered, at each responder, to that responder's commands before its
/// `pressesBegan`: so the deepest responder's command for a key wins, and a focused text
/// field that takes a letter as text keeps it from an ancestor's command for that letter
/// (docs/LIFECYCLE.md, "Keys").
public struct KeyCommand {
    public var key: Key { didSet { keyName = key.description } }
    /// How a footer shows `key` (`Key.description`), named once rather than each time the
    /// window lists the active commands, after every input (issue 20).
    public private(set) var keyName: String
    /// Shown in a footer beside the key ("Save", "Next tab").
    public var title: String
    /// False: the key does nothing and a footer shows it dimmed.
    public var isEnabled: Bool
    /// False: the command works but is not listed (UIKit's discoverability).
    public var isDiscoverable: Bool
    public var action: () -> Void

    public init(
        _ key: Key, title: String, isEnabled: Bool = true, isDiscoverable: Bool = true,
        action: @escaping () -> Void
    ) {
        precondition(key.special != .none || key.text.count == 1, "a key command's key is one character or a special key, not \"\(key.text)\"")
        precondition(!key.isPaste, "a paste is never a key command")
        self.key = key
        self.keyName = key.description
        self.title = title
        self.isEnabled = isEnabled
        self.isDiscoverable = isDiscoverable
        self.action = action
    }

    /// Whether `press` runs this command.
    public func matches(_ press: Press) -> Bool {
        isEnabled && press.phase == .began && press.key == key
    }

    /// What a list of active commands shows: the key, the title, and who declared it.
    public struct Summary: Hashable, Sendable, Codable {
        public var key: String
        public var title: String
        public var isEnabled: Bool
        /// The controller's id, or the view's identifier (or class) that declared it.
        public var owner: String

        public init(key: String, title: String, isEnabled: Bool = true, owner: String) {
            self.key = key
            self.title = title
            self.isEnabled = isEnabled
            self.owner = owner
        }
    }
}
