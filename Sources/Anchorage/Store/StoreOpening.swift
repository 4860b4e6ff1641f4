import AnchorageModel
import Dispatch
import Foundation
import Synchronization

/// A store being opened on a thread of its own.
///
/// Opening can take long — a store whose projections are stale replays them
/// over the whole log — so `HKHealthStore.init` returns at once and no
/// thread of Swift's cooperative pool waits for the open: asynchronous
/// operations suspend until it is done (``value()``); the synchronous ones
/// (``wait()``) block their caller until then, as their signatures promise.
final class StoreOpening: Sendable {
    private let outcome = Mutex<Result<StoreEngine, HKError>?>(nil)
    /// Entered until the outcome is set.
    private let done = DispatchGroup()

    /// Opens `directory` now when this process has it open already (taking
    /// one more handle on that engine), or on a new thread otherwise.
    init(directory: URL, configuration: HKHealthStore.Configuration) {
        if let engine = StoreRegistry.existing(directory: directory) {
            outcome.withLock { $0 = .success(engine) }
            return
        }
        done.enter()
        let thread = Thread { [self] in
            let result = Result { () throws(HKError) in
                try StoreRegistry.open(directory: directory, configuration: configuration)
            }
            outcome.withLock { $0 = result }
            done.leave()
        }
        thread.name = "anchorage.open"
        thread.start()
    }

    /// The engine or the error that kept the store from opening, blocking
    /// the calling thread until the open is done.
    func wait() -> Result<StoreEngine, HKError> {
        done.wait()
        return outcome.withLock { $0! }
    }

    /// The engine or the error that kept the store from opening, once the
    /// open is done; suspends without holding a thread.
    func value() async -> Result<StoreEngine, HKError> {
        if let result = outcome.withLock({ $0 }) { return result }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            done.notify(queue: .global()) { continuation.resume() }
        }
        return outcome.withLock { $0! }
    }
}
