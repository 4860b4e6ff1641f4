public import AnchorageModel
import Foundation
import Synchronization

/// Collects quantities of one type over time and saves them as quantity
/// samples whose ``HKQuantitySample/count`` may be above 1.
///
/// ```swift
/// let builder = HKQuantitySeriesSampleBuilder(
///     healthStore: store, quantityType: HKQuantityType(.heartRate), startDate: start, device: nil)
/// try builder.insert(HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: 72), at: start)
/// try builder.insert(HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: 75), at: start + 60)
/// let samples = try await builder.finishSeries(metadata: nil)
/// ```
///
/// Quantities may be inserted in any order; one inserted at the start
/// date of an earlier one replaces it. A sample holds at most 65,536
/// quantities: a builder with more saves several samples, all in one
/// write. Statistics split each sample into its quantities; read them one
/// by one with ``HKQuantitySeriesSampleQuery`` (SERIES-6).
public final class HKQuantitySeriesSampleBuilder: Hashable, @unchecked Sendable {
    // @unchecked: the only mutable state is behind `state`'s mutex.

    /// The type of every quantity.
    public let quantityType: HKQuantityType
    /// The earliest date a quantity may start, and the first sample's start.
    public let startDate: Date
    /// The device the samples come from.
    public let device: HKDevice?

    private let store: HKHealthStore
    private let state = Mutex(State())

    private struct State {
        var phase = SeriesBuilderState.Phase.collecting
        /// Quantities by start (reference-date seconds), canonical units.
        var quantities: [Double: QuantitySeries.Quantity] = [:]

        func checkCollecting() throws(HKError) {
            try SeriesBuilderState(phase: phase).checkCollecting()
        }
    }

    /// A builder for quantities of `quantityType` starting at or after
    /// `startDate`, saved to `healthStore`, from `device`.
    public init(healthStore: HKHealthStore, quantityType: HKQuantityType, startDate: Date, device: HKDevice?) {
        self.store = healthStore
        self.quantityType = quantityType
        self.startDate = startDate
        self.device = device
    }

    /// Builders are equal when they are the same builder, as NSObjects are.
    public static func == (lhs: HKQuantitySeriesSampleBuilder, rhs: HKQuantitySeriesSampleBuilder) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// Adds `quantity` over `dateInterval`; one starting when an earlier
    /// one starts replaces it.
    ///
    /// - Throws: ``HKError`` `errorInvalidArgument`: OBJ-10 for a unit the
    ///   type does not accept or a value that is not finite; SERIES-6 for an
    ///   interval starting before ``startDate`` or past the builder's limit;
    ///   SERIES-5 once the builder finished or was discarded.
    public func insert(_ quantity: HKQuantity, for dateInterval: DateInterval) throws {
        try HKQuantitySample.checkQuantity(type: quantityType, quantity: quantity)
        let start = dateInterval.start.timeIntervalSinceReferenceDate
        let end = dateInterval.end.timeIntervalSinceReferenceDate
        guard start.isFinite, end.isFinite, dateInterval.start >= startDate else {
            throw HKError(
                .errorInvalidArgument,
                rule: "SERIES-6",
                "a quantity cannot start before the series' start date"
            )
        }
        let value = quantity.doubleValue(for: quantityType.canonicalUnit)
        try state.withLock { state throws(HKError) in
            try state.checkCollecting()
            guard state.quantities.count < Self.maximumTotal || state.quantities[start] != nil else {
                throw HKError(
                    .errorInvalidArgument,
                    rule: "SERIES-6",
                    "a quantity series builder holds at most \(Self.maximumTotal) quantities"
                )
            }
            state.quantities[start] = QuantitySeries.Quantity(start: start, end: end, value: value)
        }
    }

    /// Adds `quantity` at the instant `date`.
    public func insert(_ quantity: HKQuantity, at date: Date) throws {
        try insert(quantity, for: DateInterval(start: date, duration: 0))
    }

    /// Saves the quantities as one sample (or several, past 65,536 of them)
    /// ending at `endDate` (by default when the last quantity ends).
    ///
    /// - Throws: ``HKError``: `errorNoData` when nothing was inserted;
    ///   `errorInvalidArgument` SERIES-6 for an end date before a quantity's
    ///   end; the save's errors. After a failed save the builder keeps its
    ///   quantities, so it can be retried.
    public func finishSeries(metadata: [String: Any]?, endDate: Date?) async throws -> [HKQuantitySample] {
        let checked = try HKMetadata(validating: metadata ?? [:])
        let taken = try state.withLock { state throws(HKError) in
            try state.checkCollecting()
            state.phase = .finishing
            return state.quantities
        }
        do {
            let samples = try makeSamples(taken, metadata: checked, endDate: endDate)
            try await store.openEngine().save(samples, caller: store.caller)
            state.withLock { $0 = State(phase: .finished) }
            return samples
        } catch {
            // Collecting again, with what it had, unless discarded meanwhile.
            state.withLock { if $0.phase == .finishing { $0.phase = .collecting } }
            throw error
        }
    }

    /// Saves the quantities, ending when the last one ends.
    public func finishSeries(metadata: [String: Any]?) async throws -> [HKQuantitySample] {
        try await finishSeries(metadata: metadata, endDate: nil)
    }

    /// Saves the quantities and calls `completion` with the samples or the error.
    public func finishSeries(
        metadata: [String: Any]?,
        endDate: Date?,
        completion: @escaping @Sendable ([HKQuantitySample]?, (any Error)?) -> Void
    ) {
        let box = UncheckedBox(metadata)
        Task {
            do {
                completion(try await self.finishSeries(metadata: box.value, endDate: endDate), nil)
            } catch {
                completion(nil, error)
            }
        }
    }

    /// Saves the quantities, ending when the last one ends, and calls
    /// `completion` with the samples or the error.
    public func finishSeries(
        metadata: [String: Any]?,
        completion: @escaping @Sendable ([HKQuantitySample]?, (any Error)?) -> Void
    ) {
        finishSeries(metadata: metadata, endDate: nil, completion: completion)
    }

    /// Drops every quantity; any later call on the builder fails with
    /// `errorInvalidArgument` (SERIES-5).
    public func discard() {
        state.withLock { $0 = State(phase: .discarded) }
    }

    /// The most quantities one builder collects: sixteen full samples.
    static let maximumTotal = 16 * QuantitySeries.maximumQuantities

    /// The samples of `quantities`: runs of up to the per-sample limit in
    /// start order, the first starting at ``startDate`` and the last ending
    /// at `endDate`.
    private func makeSamples(
        _ quantities: [Double: QuantitySeries.Quantity],
        metadata: HKMetadata,
        endDate: Date?
    ) throws(HKError) -> [HKQuantitySample] {
        guard !quantities.isEmpty else {
            throw HKError(.errorNoData, rule: "SERIES-6", "no quantity was inserted into the series")
        }
        let sorted = quantities.values.sorted { $0.start < $1.start }
        let lastEnd = sorted.map(\.end).max()!
        let end = endDate?.timeIntervalSinceReferenceDate ?? lastEnd
        guard end >= lastEnd, end >= startDate.timeIntervalSinceReferenceDate else {
            throw HKError(
                .errorInvalidArgument,
                rule: "SERIES-6",
                "the series' end date is before the end of a quantity or before its start date"
            )
        }
        let limit = QuantitySeries.maximumQuantities
        var samples: [HKQuantitySample] = []
        var index = 0
        while index < sorted.count {
            let run = Array(sorted[index..<min(index + limit, sorted.count)])
            let first = index == 0
            index += run.count
            let last = index == sorted.count
            let runStart = first ? startDate.timeIntervalSinceReferenceDate : run[0].start
            let runEnd = last ? end : run.map(\.end).max()!
            samples.append(
                try HKQuantitySample.makeSeries(
                    type: quantityType,
                    points: QuantitySeries(quantities: run).points!,
                    SampleFields(
                        start: Date(timeIntervalSinceReferenceDate: runStart),
                        end: Date(timeIntervalSinceReferenceDate: runEnd),
                        uuid: .random(),
                        sourceRevision: .local,
                        device: device,
                        metadata: metadata
                    )
                )
            )
        }
        return samples
    }
}
