import Synchronization

/// The parent links bound in this process, by endpoint, so that a child connecting
/// to one of them exchanges message values directly (no ZeroMQ, no serialization).
enum LocalFabric {
    private struct WeakLink { weak var link: Link? }
    private static let parents = Mutex<[String: WeakLink]>([:])

    static func register(_ link: Link, at endpoint: String) {
        parents.withLock { $0[endpoint] = WeakLink(link: link) }
    }

    static func unregister(_ endpoint: String) {
        parents.withLock { _ = $0.removeValue(forKey: endpoint) }
    }

    static func parent(at endpoint: String) -> Link? {
        parents.withLock { $0[endpoint]?.link }
    }
}
