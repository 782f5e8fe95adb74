import TrellisCanvas
import TrellisViews
import TrellisWire

extension ViewController {
    /// Asks up the tree for something, without knowing who will answer (delegation
    /// upward: S1-3's "push a detail", S2-4's "swap me"). Each ancestor in turn may answer
    /// in `handle(_:from:)`; the first answer comes back to `reply`. With no ancestor
    /// answering, the reply is `.declined`. The same call works when the parent is in
    /// another process: the request travels over the link.
    public func sendRequest(_ name: String, payload: [UInt8] = [], reply: @escaping (Reply) -> Void = { _ in }) {
        guard let p = parent else {
            View.diagnostics("\(id) sent request '\(name)' but has no parent to answer it.")
            reply(Reply(status: .declined))
            return
        }
        reply(send(.request(Request(name: name, payload: payload)), to: p) ?? Reply(status: .ok))
    }

    /// A request arriving from `child`: answer it here or pass it up.
    func answer(_ request: Request, from child: ViewController) -> Reply {
        if let reply = handle(request, from: child) { return reply }
        guard let p = parent else { return Reply(status: .declined) }
        return send(.request(request), to: p) ?? Reply(status: .ok)
    }
}
