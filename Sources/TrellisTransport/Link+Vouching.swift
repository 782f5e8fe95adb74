import TrellisWire

/// A key a connected child vouched for: the supervisor issues keys before any process
/// starts, one per controller id, so a controller a process makes later (one presented
/// from a child's tree, hosted on a link of its own) has none. Its process makes a pair
/// and vouches for the public key over its own link, whose key was issued: this end
/// admits it for that id, for as long as the voucher stays connected (docs/PROTOCOL.md
/// §1, "Vouched keys").
struct VouchedKey {
    let voucher: ControllerID
    let key: [UInt8]
}

extension Link {
    /// Child → parent end (and → the compositor): "ID KEY", the child vouches for the Z85
    /// public key KEY as controller ID. Answered by the link itself, never handed on: ok,
    /// or declined with why not (docs/PROTOCOL.md §1, "Vouched keys").
    public static let vouchRequest = "trellis.link.vouch"

    public static func vouchPayload(_ publicKey: String, as id: ControllerID) -> [UInt8] { Array("\(id) \(publicKey)".utf8) }

    /// Answers a `vouchRequest` from `voucher`.
    func vouch(_ payload: [UInt8], by voucher: ControllerID) -> Reply {
        let f = String(decoding: payload, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard f.count == 2, let id = ControllerID(f[0]) else {
            let why = "a \(Self.vouchRequest)'s payload is: ID KEY"
            logEvent("refused a key \(voucher) vouched for: \(why)", peer: voucher)
            return Reply(status: .failed, payload: Array(why.utf8))
        }
        guard let why = admitVouched(f[1], as: id, vouchedBy: voucher) else { return Reply(status: .ok) }
        return Reply(status: .declined, payload: Array(why.utf8))
    }

    /// Parent end with CURVE keys: admits `publicKey` (Z85) for `id`, vouched for by the
    /// connected child `voucher`, whose own key this end admitted; nil if admitted, else
    /// why not (logged). Refused: an id with a key issued here, reserved or a client's,
    /// the voucher's own, one another child vouched for; a key issued to anyone; a
    /// voucher not connected. The same child vouching again for the id replaces its key.
    public func admitVouched(_ publicKey: String, as id: ControllerID, vouchedBy voucher: ControllerID) -> String? {
        let why = vouchRefusal(publicKey, as: id, vouchedBy: voucher)
        guard let why else {
            let key = CurveKeyPair.binary(publicKey)!
            if let old = vouched[id], old.key != key { ZAPHandler.set(old.key, to: nil, domain: zapDomain!, context: context) }
            vouched[id] = VouchedKey(voucher: voucher, key: key)
            ZAPHandler.set(key, to: id, domain: zapDomain!, context: context)
            logEvent("admitted a key for \(id), vouched for by \(voucher)", peer: voucher)
            return nil
        }
        logEvent("refused the key \(voucher) vouched for \(id): \(why)", peer: voucher)
        return why
    }

    private func vouchRefusal(_ publicKey: String, as id: ControllerID, vouchedBy voucher: ControllerID) -> String? {
        guard zapDomain != nil, case .server(_, let issued) = options.curve else { return "this end has no keys: every key is refused" }
        guard let key = CurveKeyPair.binary(publicKey) else { return "not a Z85 CURVE public key" }
        guard peers[voucher]?.connected == true, issued.values.contains(voucher) else {
            return "\(voucher) is not connected here with a key of its own"
        }
        if id == voucher { return "it is \(voucher)'s own id" }
        if id.isReserved || id.isClientID || id == self.id { return "\(id) is reserved, a client's or this end's" }
        if issued.values.contains(id) { return "\(id) has a key of its own: it is another process's" }
        if issued[publicKey] != nil || vouched.contains(where: { $0.value.key == key && $0.key != id }) {
            return "the key is another controller's"
        }
        if let other = vouched[id], other.voucher != voucher { return "\(other.voucher) vouched for \(id)" }
        return nil
    }

    /// `voucher` is gone (lost, left, restarted): the keys it vouched for are admitted no
    /// more. A connection made with one stays until it closes; new ones are refused.
    func forgetVouched(by voucher: ControllerID) {
        guard let zapDomain else { return }
        for (id, v) in vouched where v.voucher == voucher {
            ZAPHandler.set(v.key, to: nil, domain: zapDomain, context: context)
            vouched[id] = nil
            logEvent("no longer admits \(id)'s key: \(voucher), which vouched for it, is gone", peer: voucher)
        }
    }
}
