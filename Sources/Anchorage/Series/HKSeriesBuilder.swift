import AnchorageModel
import Foundation
import Synchronization

/// The base of the builders that collect a series' points and save them
/// as one sample: ``HKWorkoutRouteBuilder`` and ``HKHeartbeatSeriesBuilder``.
///
/// ```swift
/// let builder = HKWorkoutRouteBuilder(healthStore: store, device: nil)
/// builder.discard()     // drops what was collected; the builder cannot be used again
/// ```
public class HKSeriesBuilder: Hashable, @unchecked Sendable {
    // @unchecked: the only mutable state is behind `state`'s mutex.

    let store: HKHealthStore
    let device: HKDevice?
    let state: Mutex<SeriesBuilderState>

    init(store: HKHealthStore, device: HKDevice?) {
        self.store = store
        self.device = device
        self.state = Mutex(SeriesBuilderState())
    }

    /// Builders are equal when they are the same builder, as NSObjects are.
    public static func == (lhs: HKSeriesBuilder, rhs: HKSeriesBuilder) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// Drops every point and the metadata collected; any later call on the
    /// builder fails with `errorInvalidArgument` (SERIES-5).
    public func discard() {
        state.withLock { $0 = SeriesBuilderState(phase: .discarded) }
    }

    /// Runs `change` on the state while the builder is still collecting.
    func collecting<R>(_ change: (inout SeriesBuilderState) throws(HKError) -> R) throws(HKError) -> R {
        try state.withLock { state throws(HKError) in
            try state.checkCollecting()
            return try change(&state)
        }
    }

    /// Adds validated metadata to what the series will carry; later values
    /// replace earlier ones under the same key.
    func addCheckedMetadata(_ metadata: [String: Any]) throws(HKError) {
        let checked = try HKMetadata(validating: metadata)
        try collecting { state throws(HKError) in
            state.metadata.merge(checked.values) { _, new in new }
        }
    }

    /// Takes what was collected and marks the builder finishing, so that no
    /// point is added while the sample is saved; ``settle(saved:)`` ends it.
    func takeForFinishing() throws(HKError) -> SeriesBuilderState {
        try collecting { state throws(HKError) in
            let taken = state
            state.phase = .finishing
            return taken
        }
    }

    /// After a finish: finished when the sample was saved, else collecting
    /// again with what it had, so the app can retry.
    func settle(saved: Bool, restoring taken: SeriesBuilderState) {
        state.withLock { state in
            guard state.phase == .finishing else { return }
            if saved {
                state = SeriesBuilderState(phase: .finished)
            } else {
                state = taken
            }
        }
    }
}

/// What a series builder has collected.
struct SeriesBuilderState: Sendable {
    enum Phase: Sendable { case collecting, finishing, finished, discarded }

    var phase: Phase = .collecting
    var locations: [CLLocation] = []
    var beats: [HKHeartbeatSeriesSample.Beat] = []
    var metadata: [String: HKMetadataValue] = [:]

    func checkCollecting() throws(HKError) {
        switch phase {
        case .collecting: return
        case .finishing: throw HKError(.errorInvalidArgument, rule: "SERIES-5", "the series is being finished")
        case .finished: throw HKError(.errorInvalidArgument, rule: "SERIES-5", "the series was already finished")
        case .discarded: throw HKError(.errorInvalidArgument, rule: "SERIES-5", "the series builder was discarded")
        }
    }
}
