import TrellisTransport

/// What a supervised process reads on its standard input: its CURVE keys, its parent's,
/// its children's and its actors' (`ProcessKeys`, docs/PROTOCOL.md §1, "Identity").
///
/// Contract: keys or a `Failure` with a message, never a trap; keys it accepts encode to
/// text that decodes to the same keys, and every actor its children are admitted for
/// has a pair (`server(ofActor:)` finds it).
func fuzzKeys(_ input: FuzzInput) {
    guard let text = String(validating: input.bytes, as: UTF8.self) else { return }
    let keys: ProcessKeys
    do { keys = try ProcessKeys.decode(text) } catch {
        contract(!error.description.isEmpty, "a keys failure without a message")
        return
    }
    let again: ProcessKeys
    do { again = try ProcessKeys.decode(keys.encoded) } catch {
        contract(false, "accepted keys encode to text it refuses: \(error)")
        return
    }
    contract(again == keys, "accepted keys do not survive encoding: \(keys.encoded.debugDescription)")
    for actor in keys.actorChildren.keys {
        contract(keys.server(ofActor: actor) != nil, "children admitted for the actor \(actor), which has no pair")
    }
}
