import AnchorageModel
import Synchronization

/// The background delivery of one observer query: it calls the query's
/// handler for the types the app registered, at most once per frequency,
/// and again (up to three times, waiting twice as long each time) until the
/// handler's completion handler acknowledges; an acknowledgement is stored,
/// so a restarted app is told only of what it has not handled.
///
/// A state machine over positions: `changed(through:types:)` says the log
/// holds changes through a position; one update is outstanding at a time,
/// and changes that arrive meanwhile are delivered after it.
final class ObserverDelivery: Sendable {
    /// Calls the query's handler with a completion handler and the changed
    /// types (`nil` when not known).
    typealias Call = @Sendable (@escaping HKObserverQueryCompletionHandler, Set<HKSampleType>?) -> Void

    private struct Outstanding {
        var position: UInt64
        var types: Set<HKSampleType>?
        var attempt: Int
        var id: Int
    }

    private struct State {
        var pending: UInt64?
        var pendingTypes: Set<HKSampleType>? = []
        var outstanding: Outstanding?
        var lastDelivery: Duration?
        var waitTimer: Task<Void, Never>?
        var retryTimer: Task<Void, Never>?
        var nextID = 0
        var stopped = false
    }

    static let maximumAttempts = 4

    private let engine: StoreEngine
    private let caller: Caller
    private let types: [HKSampleType]
    private let interval: Duration
    private let retryWait: Duration
    private let clock: StoreClock
    private let call: Call
    private let state = Mutex(State())

    init(
        engine: StoreEngine,
        caller: Caller,
        registrations: [String: DeliveryRegistration],
        types: [HKSampleType],
        call: @escaping Call
    ) {
        self.engine = engine
        self.caller = caller
        self.types = types.filter { registrations[$0.identifier] != nil }
        self.interval = registrations.values.map(\.frequency.minimumInterval).min() ?? .zero
        self.retryWait = engine.configuration.backgroundDeliveryRetryWait
        self.clock = engine.configuration.clock
        self.call = call
    }

    /// The log holds changes of `changed` (`nil`: unknown) through `position`.
    func changed(through position: UInt64, types changed: Set<HKSampleType>?) {
        state.withLock { state in
            state.pending = max(state.pending ?? 0, position)
            if let changed, let known = state.pendingTypes {
                state.pendingTypes = known.union(changed)
            } else {
                state.pendingTypes = nil
            }
        }
        send()
    }

    /// Stops every timer; nothing more is delivered.
    func stop() {
        state.withLock { state in
            state.stopped = true
            state.waitTimer?.cancel()
            state.retryTimer?.cancel()
        }
    }

    /// Delivers what is pending, unless an update is outstanding or the
    /// frequency says to wait.
    private func send() {
        let now = clock.now()
        let delivery = state.withLock { state -> Outstanding? in
            guard !state.stopped, state.outstanding == nil, let pending = state.pending else { return nil }
            if let last = state.lastDelivery, now < last + interval {
                if state.waitTimer == nil {
                    let wait = last + interval - now
                    state.waitTimer = Task { [weak self] in
                        try? await self?.clock.sleep(wait)
                        self?.state.withLock { $0.waitTimer = nil }
                        self?.send()
                    }
                }
                return nil
            }
            state.nextID += 1
            let outstanding = Outstanding(position: pending, types: state.pendingTypes, attempt: 1, id: state.nextID)
            state.outstanding = outstanding
            state.pending = nil
            state.pendingTypes = []
            state.lastDelivery = now
            return outstanding
        }
        if let delivery { deliver(delivery) }
    }

    /// Calls the handler for `outstanding` and waits for its acknowledgement.
    private func deliver(_ outstanding: Outstanding) {
        let wait = retryWait * (1 << (outstanding.attempt - 1))
        state.withLock { state in
            state.retryTimer?.cancel()
            state.retryTimer = Task { [weak self] in
                do { try await self?.clock.sleep(wait) } catch { return }
                self?.retry(outstanding.id)
            }
        }
        let id = outstanding.id
        call({ [weak self] in self?.acknowledge(id) }, outstanding.types)
    }

    /// No acknowledgement came: deliver again, or give up until the next change.
    private func retry(_ id: Int) {
        let again = state.withLock { state -> Outstanding? in
            guard !state.stopped, var outstanding = state.outstanding, outstanding.id == id else { return nil }
            guard outstanding.attempt < Self.maximumAttempts else {
                // Given up: what it covered is pending again for the next change.
                state.outstanding = nil
                state.pending = max(state.pending ?? 0, outstanding.position)
                return nil
            }
            state.nextID += 1
            outstanding.attempt += 1
            outstanding.id = state.nextID
            state.outstanding = outstanding
            return outstanding
        }
        if let again { deliver(again) }
    }

    private func acknowledge(_ id: Int) {
        let position = state.withLock { state -> UInt64? in
            guard let outstanding = state.outstanding, outstanding.id == id else { return nil }
            state.outstanding = nil
            state.retryTimer?.cancel()
            state.retryTimer = nil
            return outstanding.position
        }
        guard let position else { return }
        Task {
            try? await engine.acknowledgeDeliveries(of: caller, for: types, through: position)
            send()
        }
    }
}
