import TrellisWire

/// What the compositor does with one decoded terminal event.
///
/// Keys and touches become the wire messages the control endpoint's `key` and `touch`
/// carry, so terminal input and a test client's injected input take the same path into
/// the root. A paste becomes keys marked `.paste`, split so that no message exceeds the
/// wire's key-text limit and no character is cut.
public enum InputRoute: Sendable, Equatable {
    /// Messages for the root, in order.
    case root([Message])
    /// Understood but with nowhere to go yet (the wheel, focus reports): not an error.
    case ignored(String)
    /// Bytes that decode to nothing: logged with the reason, and input goes on.
    case rejected(String)
}

extension InputEvent {
    /// Where this event goes.
    public var route: InputRoute {
        switch self {
        case .key(let key):
            return .root([.key(key)])
        case .touch(let touch):
            return .root([.touch(touch)])
        case .paste(let text):
            return .root(Self.pasteKeys(text).map { .key($0) })
        case .scroll(let wheel):
            return .root([.scroll(wheel)])
        case .focus(let gained):
            return .ignored("focus \(gained ? "gained" : "lost"): nothing consumes focus reports yet")
        case .answer(let answer):
            return .ignored("terminal answered \(answer): the front end's, never a key")
        case .invalid(let bytes, let reason):
            let hex = bytes.prefix(16).map(\.hex).joined(separator: " ")
            return .rejected("\(reason)" + (bytes.isEmpty ? "" : " [\(hex)\(bytes.count > 16 ? " …" : "")]"))
        }
    }

    /// A paste as `.paste` keys of at most `WireLimits.maxPasteText` bytes each — one key,
    /// one insertion, up to 64 KiB — cut only
    /// between characters. An empty paste is one empty `.paste` key: the view learns that
    /// a paste happened.
    static func pasteKeys(_ text: String, limit: Int = WireLimits.maxPasteText) -> [KeyPress] {
        var keys: [KeyPress] = []
        var chunk = ""
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            if bytes + size > limit && !chunk.isEmpty {
                keys.append(KeyPress(modifiers: .paste, text: chunk))
                chunk = ""
                bytes = 0
            }
            // A single character longer than the limit (absurd combining runs) is cut to
            // its scalars that fit, rather than breaking the wire limit.
            if size > limit {
                var kept = String.UnicodeScalarView()
                var keptBytes = 0
                for scalar in character.unicodeScalars where keptBytes + scalar.utf8.count <= limit {
                    kept.append(scalar)
                    keptBytes += scalar.utf8.count
                }
                keys.append(KeyPress(modifiers: .paste, text: String(kept)))
                continue
            }
            chunk.append(character)
            bytes += size
        }
        if !chunk.isEmpty || keys.isEmpty { keys.append(KeyPress(modifiers: .paste, text: chunk)) }
        return keys
    }
}
