import Anchorage
import AnchorageServer
import AnchorageTesting
import HTTPTypes
import HummingbirdTesting
import Synchronization

/// The node's clock (``NodeConfiguration/clock``) moved by hand: shares
/// refill, turns, body deadlines, long-polls and heartbeats then come when
/// the test moves it, never with how fast or busy the machine is.
///
/// ```swift
/// let clock = HandClock()
/// let configuration = nodeConfiguration { $0.clock = clock.store }
/// let (response, waited) = try await clock.driving { try await client.send(.get, path) }
/// ```
final class HandClock: Sendable {
    let clock = TestClock()

    /// The clock as the node takes it.
    var store: StoreClock { StoreClock(clock) }

    /// How far the clock has moved.
    var now: Duration { clock.now.offset }

    func advance(by duration: Duration) {
        clock.advance(by: duration)
    }

    /// Moves the clock from deadline to deadline until nothing waits on it:
    /// a stream whose client left finds out when its next heartbeat fails
    /// to go out, and ends, so the node can stop.
    ///
    /// A timer that just fired is not waiting until its stream has written
    /// and set the next one, so "nothing waits" counts only once `idle` says
    /// so too (no stream open).
    func runDown(idle: () async throws -> Bool = { true }) async throws {
        try await waitUntil("the node's timers ended") {
            if let next = clock.remaining.first {
                clock.advance(by: next)
                return false
            }
            return try await idle()
        }
    }

    /// Tests `node` over real connections; on the way out, whatever
    /// happened, moves the clock until the node's timers have ended (bodies
    /// cut off, streams finding their clients gone), so that the node stops
    /// instead of waiting for them with its clock standing still.
    func live<R: Sendable>(
        _ node: AnchorageNode,
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> R
    ) async throws -> R {
        try await node.application().test(.live) { client in
            // No change-feed stream open any more.
            let idle = { () async throws -> Bool in
                var response = try await client.send(.get, "/metrics")
                if response.status == .unauthorized {
                    response = try await client.send(.get, "/metrics", token: Tokens.owner)
                }
                return metricValue("anchorage_feed_clients", in: response.text) == 0
            }
            do {
                let result = try await body(client)
                try await runDown(idle: idle)
                return result
            } catch {
                try? await runDown(idle: idle)
                throw error
            }
        }
    }

    /// Runs `body`, moving the clock to each deadline the node sleeps until
    /// meanwhile (a turn waited for, a back-off), as if time passed only
    /// while everything waits; returns what `body` returned and how far the
    /// clock moved. Fails after `limit` of clock time or 60 s of real time.
    func driving<R: Sendable>(
        limit: Duration = .seconds(3_600),
        _ body: @escaping @Sendable () async throws -> R
    ) async throws -> (R, waited: Duration) {
        let began = now
        let result = Mutex<Result<R, any Error>?>(nil)
        let task = Task {
            let outcome: Result<R, any Error>
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
        }
        defer { task.cancel() }
        while true {
            try await waitUntil("the request answered, or the node waiting on the clock") {
                result.withLock { $0 != nil } || clock.sleeperCount > 0
            }
            if let outcome = result.withLock({ $0 }) { return (try outcome.get(), now - began) }
            guard let next = clock.remaining.first, now - began + next <= limit else {
                throw TestClockError(description: "the node still waits after \(now - began): \(clock.remaining)")
            }
            clock.advance(by: next)
        }
    }
}
