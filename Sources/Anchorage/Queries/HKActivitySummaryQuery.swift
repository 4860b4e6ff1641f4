import AnchorageLog
public import AnchorageModel
public import Foundation
import Synchronization

/// Reads the daily activity summaries (the Move, Exercise and Stand rings)
/// that match a predicate, in day order.
///
/// ```swift
/// let start = DateComponents(calendar: calendar, year: 2026, month: 1, day: 1)
/// let end = DateComponents(calendar: calendar, year: 2026, month: 1, day: 31)
/// let query = HKActivitySummaryQuery(
///     predicate: HKQuery.predicate(forActivitySummariesBetweenStart: start, end: end)
/// ) { _, summaries, error in
///     print(summaries?.count ?? 0, "days")
/// }
/// query.updateHandler = { _, changed, _ in print("updated:", changed ?? []) }
/// store.execute(query)
/// ```
///
/// With an ``updateHandler`` set before the query runs, it keeps running:
/// after each committed save of summaries in its range, the handler gets
/// the current summaries of the days that changed, until the query is
/// stopped.
public final class HKActivitySummaryQuery: HKQuery, @unchecked Sendable {
    // @unchecked: `updateHandler` is guarded by a mutex; the rest is immutable.

    /// The handlers' type.
    public typealias Handler = @Sendable (HKActivitySummaryQuery, [HKActivitySummary]?, (any Error)?) -> Void

    private let range: Result<ActivityDayRange, HKError>
    private let resultsHandler: Handler
    private let update = Mutex<Handler?>(nil)

    /// A query for the summaries `predicate` selects (all of them when it is
    /// `nil`): one of ``HKQuery/predicateForActivitySummary(with:)`` or
    /// ``HKQuery/predicate(forActivitySummariesBetweenStart:end:)``.
    public init(predicate: NSPredicate?, resultsHandler handler: @escaping Handler) {
        self.range = ActivityDayRange.of(predicate)
        self.resultsHandler = handler
        super.init(objectType: TypeCatalog.activitySummary, predicate: predicate)
    }

    /// Called after the first results with the summaries that changed since;
    /// set it before executing the query. `nil` (the default) ends the query
    /// once the results are delivered.
    public var updateHandler: Handler? {
        get { update.withLock { $0 } }
        set { update.withLock { $0 = newValue } }
    }

    override func fail(_ error: HKError) {
        resultsHandler(self, nil, error)
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        let updates = updateHandler
        do {
            let range = try range.get()
            let batches = updates == nil ? nil : engine.log.committedBatches()
            let (summaries, head) = try engine.read { txn in
                (try store.activitySummaries(from: range.first, through: range.last), try engine.head(in: txn))
            }
            deliver { resultsHandler(self, summaries, nil) }
            guard let updates, let batches else { return }
            var delivered = head
            for await batch in batches {
                guard !lifecycle.isStopped else { return }
                guard batch.last.seq > delivered else { continue }
                let page = try engine.log.entries(
                    after: batch.previous,
                    limit: batch.count,
                    kinds: [StoreKind.activitySummary]
                )
                delivered = batch.last.seq
                var days = Set<ActivityDay>()
                for entry in page.entries {
                    guard let record = entry.payload?.withUnsafeBytes({ ActivitySummaryRecord.decoded($0) }),
                        let day = ActivityDay(text: record.day), range.contains(day)
                    else { continue }
                    days.insert(day)
                }
                guard !days.isEmpty else { continue }
                let changed = try days.sorted().flatMap { day in
                    try store.activitySummaries(from: day, through: day)
                }
                guard !changed.isEmpty else { continue }
                deliver { updates(self, changed, nil) }
            }
        } catch {
            deliver { fail(HKError.wrapping(error)) }
        }
    }
}

/// The days an activity summary predicate selects, both ends included.
struct ActivityDayRange: Sendable, Hashable {
    var first: ActivityDay?
    var last: ActivityDay?

    func contains(_ day: ActivityDay) -> Bool {
        (first.map { $0 <= day } ?? true) && (last.map { day <= $0 } ?? true)
    }

    /// The range of `predicate`: everything for `nil`.
    static func of(_ predicate: NSPredicate?) -> Result<ActivityDayRange, HKError> {
        guard let predicate else { return .success(ActivityDayRange()) }
        guard let activity = predicate as? HKActivitySummaryPredicate else {
            return .failure(
                .invalid(
                    "ACT-4",
                    "an activity summary query takes a predicate from HKQuery.predicateForActivitySummary(with:) "
                        + "or predicate(forActivitySummariesBetweenStart:end:)"
                )
            )
        }
        return activity.range
    }
}

/// The predicate of the activity summary factories: the days it selects.
public final class HKActivitySummaryPredicate: NSPredicate {
    let range: Result<ActivityDayRange, HKError>

    init(range: Result<ActivityDayRange, HKError>) {
        self.range = range
        super.init(value: true)
    }

    public required init?(coder: NSCoder) {
        nil
    }

    public override func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        guard let summary = object as? HKActivitySummary, let day = summary.day, case .success(let range) = range
        else { return false }
        return range.contains(day)
    }

    public override var description: String {
        switch range {
        case .success(let range):
            "HKActivitySummaryPredicate(\(range.first?.text ?? "…") – \(range.last?.text ?? "…"))"
        case .failure(let error):
            "HKActivitySummaryPredicate(invalid: \(error))"
        }
    }
}

extension HKQuery {
    /// The summary of one day: `dateComponents` name it (with their
    /// calendar, or the Gregorian one), as in HealthKit.
    ///
    /// ```swift
    /// let today = Calendar.current.dateComponents([.era, .year, .month, .day], from: Date())
    /// let predicate = HKQuery.predicateForActivitySummary(with: today)
    /// ```
    ///
    /// Components that name no day make the query fail with
    /// `errorInvalidArgument` (`ACT-1`).
    public static func predicateForActivitySummary(with dateComponents: DateComponents) -> NSPredicate {
        HKActivitySummaryPredicate(
            range: Result { () throws(HKError) in
                let day = try ActivityDay(dateComponents)
                return ActivityDayRange(first: day, last: day)
            }
        )
    }

    /// The summaries of the days from `startDateComponents` through
    /// `endDateComponents`, both included.
    ///
    /// ```swift
    /// let predicate = HKQuery.predicate(forActivitySummariesBetweenStart: firstOfMonth, end: today)
    /// ```
    public static func predicate(
        forActivitySummariesBetweenStart startDateComponents: DateComponents,
        end endDateComponents: DateComponents
    ) -> NSPredicate {
        HKActivitySummaryPredicate(
            range: Result { () throws(HKError) in
                ActivityDayRange(first: try ActivityDay(startDateComponents), last: try ActivityDay(endDateComponents))
            }
        )
    }
}

/// The async form of ``HKActivitySummaryQuery``.
///
/// ```swift
/// let summaries = try await HKActivitySummaryQueryDescriptor(predicate: nil).result(for: store)
/// ```
public struct HKActivitySummaryQueryDescriptor: Sendable, HKAsyncQuery, HKAsyncSequenceQuery {
    /// The days to read (``HKQuery/predicate(forActivitySummariesBetweenStart:end:)``
    /// or ``HKQuery/predicateForActivitySummary(with:)``); all when `nil`.
    nonisolated(unsafe) public var predicate: NSPredicate?

    /// A descriptor for the summaries `predicate` selects (all when `nil`).
    public init(predicate: NSPredicate?) {
        self.predicate = predicate
    }

    /// The matching summaries, in day order.
    public func result(for healthStore: HKHealthStore) async throws -> [HKActivitySummary] {
        let range = try ActivityDayRange.of(predicate).get()
        return try healthStore.activitySummaries(from: range.first, through: range.last)
    }

    /// The summaries of a long-running query, each time they change.
    public typealias Results = QueryResultSequence<[HKActivitySummary]>

    /// The matching summaries, then the summaries that change, until the
    /// task is cancelled.
    public func results(for healthStore: HKHealthStore) -> Results {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [HKActivitySummary].self)
        let predicate = HKActivitySummaryPredicate(range: ActivityDayRange.of(predicate))
        let query = HKActivitySummaryQuery(predicate: predicate) { _, summaries, error in
            if let error { continuation.finish(throwing: error) } else { continuation.yield(summaries ?? []) }
        }
        query.updateHandler = { _, summaries, error in
            if let error { continuation.finish(throwing: error) } else { continuation.yield(summaries ?? []) }
        }
        continuation.onTermination = { _ in healthStore.stop(query) }
        healthStore.execute(query)
        return Results(stream)
    }
}
