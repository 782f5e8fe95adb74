import TrellisWire

/// Why a key name was refused.
public struct KeyParseError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension Key {
    /// The longest name `init(parsing:)` reads: a name is typed by a person or written in a
    /// file, never more than a few modifiers and a key.
    public static let maxNameLength = 64

    /// Reads a key as people write it and as `description` shows it: modifiers joined by
    /// `+` before the key — `ctrl+s`, `Ctrl+Alt+x`, `shift+tab`, `alt+enter` — or `^S`
    /// for Control with a letter; the key a named special key (`enter`, `tab`, `esc`,
    /// `up` or `↑`, `pgup`, `f1` … `f12`, `space`, in any case) or one character, taken in
    /// its case (`Q` is Q; a terminal sends it so, never Shift+q). Refused, with the
    /// reason: an empty or over-long name, an unknown modifier or key, a modifier twice,
    /// Shift with a character (a terminal never reports it), and `paste`.
    public init(parsing name: String) throws(KeyParseError) {
        guard !name.isEmpty else { throw KeyParseError("empty key name") }
        guard name.count <= Key.maxNameLength else {
            throw KeyParseError("key name of \(name.count) characters; at most \(Key.maxNameLength)")
        }
        if name.count == 2, name.hasPrefix("^"), let c = name.last, c.isLetter, c.isASCII {
            self.init(text: c.lowercased(), modifiers: .control)
            return
        }
        var parts = name.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        // A trailing "+" is the plus key: "ctrl++", or "+" alone.
        if parts.count >= 2, parts[parts.count - 1].isEmpty, parts[parts.count - 2].isEmpty {
            parts.removeLast(2)
            parts.append("+")
        }
        let keyName = parts.removeLast()
        var modifiers: KeyModifiers = []
        for part in parts {
            guard let m = Key.modifierNames[part.lowercased()] else {
                throw KeyParseError("unknown modifier '\(part)' in '\(name)'; one of ctrl, alt, shift")
            }
            guard !modifiers.contains(m) else { throw KeyParseError("'\(part)' twice in '\(name)'") }
            modifiers.insert(m)
        }
        if let special = Key.specialByName[keyName.lowercased()] {
            self.init(special, modifiers: modifiers)
            return
        }
        if keyName.lowercased() == "space" {
            self.init(text: " ", modifiers: modifiers)
        } else if keyName.count == 1 {
            // Control letters arrive lower case (docs/TERMINAL.md).
            let text = modifiers.contains(.control) ? keyName.lowercased() : keyName
            self.init(text: text, modifiers: modifiers)
        } else {
            throw KeyParseError("unknown key '\(keyName)' in '\(name)'; a character or one of \(Key.specialByName.keys.sorted().joined(separator: ", "))")
        }
        if modifiers.contains(.shift) {
            throw KeyParseError("Shift with '\(keyName)' in '\(name)': a terminal sends the character in its case instead ('\(keyName.uppercased())')")
        }
    }

    private static let modifierNames: [String: KeyModifiers] = [
        "ctrl": .control, "control": .control, "alt": .alt, "meta": .alt, "option": .alt, "shift": .shift,
    ]

    /// Every name of every special key: the footer's (`Esc`, `PgUp`, `↑`) and the long ones.
    private static let specialByName: [String: KeyPress.Special] = {
        var names: [String: KeyPress.Special] = [:]
        for (special, shown) in specialNames { names[shown.lowercased()] = special }
        for special in KeyPress.Special.allCases where special != .none { names["\(special)".lowercased()] = special }
        names["return"] = .enter
        names["escape"] = .escape
        names["del"] = .delete
        return names
    }()
}
