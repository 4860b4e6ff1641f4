import Anchorage
import AnchorageService
import ServiceLifecycle
import Synchronization

/// Opens again, now and then, the stores that closed with webhook changes
/// they had not delivered (a receiver down while the store was open), so a
/// quiet store's deliveries are retried without waiting for its next
/// request. A store opened this way closes again once idle; if its
/// receiver is still down, it is retried at the next round.
final class WebhookRetrier: Service, Sendable {
    /// At most this many stores are opened a round, so that dead receivers
    /// cannot hold the pool.
    static let storesPerRound = 16

    private let pending = Mutex<Set<StoreName>>([])
    private let interval: Duration
    private let clock: StoreClock
    /// Opens a store for a moment (its deliveries begin as it opens); set
    /// once the node's pool exists.
    private let opener = Mutex<(@Sendable (StoreName) async -> Void)?>(nil)

    init(interval: Duration, clock: StoreClock) {
        self.interval = interval
        self.clock = clock
    }

    /// Names how a store is opened for a retry.
    func open(with opener: @escaping @Sendable (StoreName) async -> Void) {
        self.opener.withLock { $0 = opener }
    }

    /// A store that closed with undelivered changes.
    func add(_ name: StoreName) {
        pending.withLock { _ = $0.insert(name) }
    }

    /// The stores waiting for a retry.
    var waiting: Set<StoreName> { pending.withLock { $0 } }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await self.clock.sleep(self.interval) } catch { return }
                await self.retryRound()
            }
        }
    }

    /// Opens up to ``storesPerRound`` of the waiting stores.
    func retryRound() async {
        let names = pending.withLock { pending -> [StoreName] in
            let taken = Array(pending.sorted { $0.rawValue < $1.rawValue }.prefix(Self.storesPerRound))
            pending.subtract(taken)
            return taken
        }
        guard let open = opener.withLock({ $0 }) else { return }
        for name in names { await open(name) }
    }
}
