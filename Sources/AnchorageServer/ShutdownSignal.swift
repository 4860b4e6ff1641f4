import AnchorageSync
import Foundation
import ServiceLifecycle
import Synchronization

/// Tells the node's long-lived responses (feed streams, long-polls) that
/// the node is shutting down, so they end at once and the server can stop.
///
/// Request handlers do not see ServiceLifecycle's graceful shutdown
/// themselves, so ``ShutdownNotifier`` runs beside the server, is shut down
/// before it, and fires this signal.
final class ShutdownSignal: Sendable {
    private let state = Mutex<(fired: Bool, waiters: [UUID: AsyncStream<Void>.Continuation])>((false, [:]))

    /// A stream that yields once, when the node begins shutting down (at
    /// once if it already has), or when `other` fires (a store's own end,
    /// as it is deleted), then finishes.
    func stream(also other: ShutdownSignal? = nil) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let id = UUID()
        let signals = [self] + (other.map { [$0] } ?? [])
        var fired = false
        for signal in signals where !fired {
            fired = signal.state.withLock { state in
                if !state.fired { state.waiters[id] = continuation }
                return state.fired
            }
        }
        if fired {
            continuation.yield()
            continuation.finish()
        }
        continuation.onTermination = { _ in
            for signal in signals { _ = signal.state.withLock { $0.waiters.removeValue(forKey: id) } }
        }
        return stream
    }

    /// Whether shutdown has begun.
    var isFired: Bool { state.withLock { $0.fired } }

    /// Ends every waiter.
    func fire() {
        let waiters = state.withLock { state in
            state.fired = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.yield()
            waiter.finish()
        }
    }
}

/// Fires the node's ``ShutdownSignal`` when the service group begins a
/// graceful shutdown. Listed after the application, it is shut down first.
struct ShutdownNotifier: Service {
    let signal: ShutdownSignal

    func run() async throws {
        try? await gracefulShutdown()
        signal.fire()
    }
}

/// Keeps a node's replicators following their peers (both ways) until the
/// node shuts down.
struct PeerSyncService: Service {
    let replicators: [PeerReplicator]

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                for replicator in replicators {
                    group.addTask { await replicator.follow(.both) }
                }
            }
        }
    }
}
