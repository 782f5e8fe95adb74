import CZeroMQ

/// A libzmq call that failed, with what it was doing.
public struct ZMQError: Error, CustomStringConvertible, Equatable {
    public let errno: Int32
    public let operation: String

    init(_ operation: String, errno: Int32 = zmq_errno()) {
        self.errno = errno
        self.operation = operation
    }

    public var description: String { "\(operation): \(String(cString: zmq_strerror(errno)))" }

    public var isWouldBlock: Bool { errno == EAGAIN }
    public var isHostUnreachable: Bool { errno == EHOSTUNREACH }
}
