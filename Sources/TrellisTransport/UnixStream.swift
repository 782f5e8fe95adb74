#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The calls of a Unix stream socket that a lane makes (docs/TRANSPORT.md, "Lanes"):
/// non-blocking descriptors, closed on exec. Each returns -1 with `errno` set when it
/// fails; a path `sun_path` cannot hold fails with ENAMETOOLONG.
enum UnixStream {
    /// Listens at `path`, which must not exist.
    static func listen(at path: String) -> Int32 {
        guard var address = address(path) else { return -1 }
        let fd = socket()
        guard fd >= 0 else { return -1 }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #if canImport(Glibc)
        let listening = Glibc.listen(fd, 64)
        #else
        let listening = Darwin.listen(fd, 64)
        #endif
        guard bound == 0, listening == 0 else { return failing(fd) }
        return fd
    }

    /// Connects to `path`: a Unix stream connection is made at once or not (EAGAIN: the
    /// listener's backlog is full).
    static func connect(to path: String) -> Int32 {
        guard var address = address(path) else { return -1 }
        let fd = socket()
        guard fd >= 0 else { return -1 }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                #else
                Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                #endif
            }
        }
        guard connected == 0 else { return failing(fd) }
        return fd
    }

    /// A connection waiting at `listener`, or -1 (EAGAIN when none waits).
    static func accept(_ listener: Int32) -> Int32 {
        #if canImport(Glibc)
        let fd = Glibc.accept(listener, nil, nil)
        #else
        let fd = Darwin.accept(listener, nil, nil)
        #endif
        if fd >= 0 { configure(fd) }
        return fd
    }

    /// Writes the three buffers in order with one call, without SIGPIPE: the bytes
    /// written, or -1 (EAGAIN: the socket's buffer is full).
    static func send(
        _ fd: Int32, _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer = .init(start: nil, count: 0),
        _ c: UnsafeRawBufferPointer = .init(start: nil, count: 0)
    ) -> Int {
        // A tuple on the stack, not an array: every message a lane writes comes here.
        var parts = (
            iovec(iov_base: UnsafeMutableRawPointer(mutating: a.baseAddress), iov_len: a.count),
            iovec(iov_base: UnsafeMutableRawPointer(mutating: b.baseAddress), iov_len: b.count),
            iovec(iov_base: UnsafeMutableRawPointer(mutating: c.baseAddress), iov_len: c.count)
        )
        return withUnsafeMutablePointer(to: &parts) { tuple in
            // Three values of one type: a tuple of them is laid out as an array of three.
            tuple.withMemoryRebound(to: iovec.self, capacity: 3) { iov in
                var message = msghdr()
                message.msg_iov = iov
                message.msg_iovlen = 3
                return sendmsg(fd, &message, noSignal)
            }
        }
    }

    /// Reads what is there, up to `into.count` bytes: the count, 0 at the end of the
    /// stream, or -1 (EAGAIN: nothing yet).
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        recv(fd, buffer.baseAddress, buffer.count, 0)
    }

    static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    #if canImport(Glibc)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    // Darwin has no MSG_NOSIGNAL: the socket is made with SO_NOSIGPIPE instead.
    private static let noSignal: Int32 = 0
    #endif

    private static func socket() -> Int32 {
        #if canImport(Glibc)
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = Darwin.socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        if fd >= 0 { configure(fd) }
        return fd
    }

    /// Non-blocking and closed on exec (accept(2) does not pass either on).
    private static func configure(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    private static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            errno = ENAMETOOLONG
            return nil
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return address
    }

    private static func failing(_ fd: Int32) -> Int32 {
        let e = errno
        close(fd)
        errno = e
        return -1
    }
}
