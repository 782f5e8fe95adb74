import CZeroMQ
import TrellisWire

/// A CURVE key pair (zmq_curve(7)), both halves in Z85: 40 characters each.
public struct CurveKeyPair: Sendable, Equatable {
    public let publicKey: String
    public let secretKey: String

    public init(publicKey: String, secretKey: String) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// A fresh pair from libzmq's own generator (zmq_curve_keypair).
    public static func generate() throws(ZMQError) -> CurveKeyPair {
        var pub = [CChar](repeating: 0, count: 41), sec = [CChar](repeating: 0, count: 41)
        guard zmq_curve_keypair(&pub, &sec) == 0 else { throw ZMQError("zmq_curve_keypair") }
        func text(_ z: [CChar]) -> String { String(decoding: z.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        return CurveKeyPair(publicKey: text(pub), secretKey: text(sec))
    }

    /// The 32 bytes a Z85 key stands for, or nil if it is not one.
    static func binary(_ z85: String) -> [UInt8]? {
        guard z85.utf8.count == 40 else { return nil }
        var out = [UInt8](repeating: 0, count: 32)
        return zmq_z85_decode(&out, z85) == nil ? nil : out
    }
}

/// Who a link end is on a CURVE connection, and who may connect to it.
public enum CurveKeys: Sendable {
    /// Parent end: its pair, and the public key of each child that may connect with the
    /// id it must speak as. Any other key is refused at the handshake (ZAP, RFC 27), and
    /// a message whose `source` is not the id its connection's key was admitted as is
    /// rejected with `refused-id`.
    case server(CurveKeyPair, children: [String: ControllerID])
    /// Child end: its pair, and the parent's public key.
    case client(CurveKeyPair, serverKey: String)
}
