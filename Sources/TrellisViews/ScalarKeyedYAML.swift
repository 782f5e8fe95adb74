import Foundation
import Yams

/// YAML composed only once every mapping key is known to be a scalar, as in view and
/// scene files, which key by name.
///
/// Yams checks each mapping for duplicate keys by hashing every key whole. A key made
/// of YAML aliases expands, when hashed, to every node they reach — ten aliases a level,
/// seven levels deep, is ten million — and `compose` does not return (the `view` fuzz
/// target found such a file of 569 bytes, 2026-11-25). So the text is first composed
/// with every alias replaced by a marker scalar, which keeps it linear in its size,
/// and refused if a key is a collection or an alias; only then is it composed as it is.
public enum ScalarKeyedYAML {
    /// A key that is not a scalar: its line (1-based) and why.
    public struct Refusal: Error, Sendable, Equatable {
        public var line: Int?
        public var message: String
    }

    /// `Yams.compose(yaml:)`, for text whose every mapping key is a scalar; throws
    /// `Refusal` for any other, and what Yams throws for text that is not YAML.
    public static func compose(_ text: String) throws -> Node? {
        let flattened = try NSRegularExpression(pattern: aliasToken, options: [.anchorsMatchLines]).stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: marker)
        if let node = try Yams.compose(yaml: flattened) { try checkKeys(node) }
        return try Yams.compose(yaml: text)
    }

    /// What an alias becomes for the check: a plain scalar no file writes.
    private static let marker = "trellis-alias-in-check"

    /// An alias (`*name`) where a token starts: the line's start, or after a space or a
    /// flow indicator. One inside a quoted or plain scalar may be replaced too, which
    /// leaves that scalar a scalar.
    private static let aliasToken = #"(?<=^|[\s\[\{,])\*[^\s\[\]\{\},]+"#

    private static func checkKeys(_ node: Node) throws {
        switch node {
        case .mapping(let mapping):
            for (key, value) in mapping {
                guard case .scalar(let s) = key else {
                    throw Refusal(line: key.mark.map { $0.line }, message: "a mapping key must be a name, not a collection")
                }
                guard s.string != marker else {
                    throw Refusal(line: key.mark.map { $0.line }, message: "a mapping key must be a name, not an alias")
                }
                try checkKeys(value)
            }
        case .sequence(let sequence):
            for item in sequence { try checkKeys(item) }
        case .scalar, .alias:
            break
        }
    }
}
