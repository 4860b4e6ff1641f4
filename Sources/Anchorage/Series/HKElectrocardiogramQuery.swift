public import AnchorageModel
import Foundation

/// Reads an electrocardiogram's voltage measurements in time order, one
/// handler call per measurement, then one that says it is done.
///
/// ```swift
/// let query = HKElectrocardiogramQuery(ecg) { _, result in
///     switch result {
///     case .measurement(let measurement): volts.append(measurement.quantity(for: .appleWatchSimilarToLeadI)!)
///     case .done: plot(volts)
///     case .error(let error): report(error)
///     }
/// }
/// store.execute(query)
/// ```
///
/// An electrocardiogram that is not in the store, or that the app may not
/// read, is `errorNoData` (SERIES-4).
public final class HKElectrocardiogramQuery: HKQuery, @unchecked Sendable {
    // @unchecked: HealthKit's handlers here are not @Sendable; the query
    // calls them one at a time and never concurrently.

    /// What a call of the result handler carries.
    public enum Result: Sendable {
        /// One measurement, in time order.
        case measurement(HKElectrocardiogram.VoltageMeasurement)
        /// Every measurement was delivered.
        case done
        /// The query failed.
        case error(any Error)
    }

    private let electrocardiogram: HKElectrocardiogram
    private let handler: (HKElectrocardiogramQuery, Result) -> Void

    /// A query calling `dataHandler` with each measurement, `done` true on
    /// the call after the last (with no measurement), or with the error.
    public init(
        electrocardiogram: HKElectrocardiogram,
        dataHandler:
            @escaping (HKElectrocardiogramQuery, HKElectrocardiogram.VoltageMeasurement?, Bool, (any Error)?)
            -> Void
    ) {
        self.electrocardiogram = electrocardiogram
        self.handler = { query, result in
            switch result {
            case .measurement(let measurement): dataHandler(query, measurement, false, nil)
            case .done: dataHandler(query, nil, true, nil)
            case .error(let error): dataHandler(query, nil, true, error)
            }
        }
        super.init(objectType: HKObjectType.electrocardiogramType(), predicate: nil)
    }

    /// A query calling `dataHandler` with each result.
    public convenience init(
        _ ecg: HKElectrocardiogram,
        dataHandler: @escaping (HKElectrocardiogramQuery, HKElectrocardiogramQuery.Result) -> Void
    ) {
        self.init(electrocardiogram: ecg, handler: dataHandler)
    }

    private init(electrocardiogram: HKElectrocardiogram, handler: @escaping (HKElectrocardiogramQuery, Result) -> Void)
    {
        self.electrocardiogram = electrocardiogram
        self.handler = handler
        super.init(objectType: HKObjectType.electrocardiogramType(), predicate: nil)
    }

    override func fail(_ error: HKError) {
        handler(self, .error(error))
    }

    override func run(in store: HKHealthStore, engine: StoreEngine) async {
        let ecg: HKElectrocardiogram
        let points: SeriesPoints
        do {
            let stored = try engine.seriesSample(
                electrocardiogram.uuid,
                type: TypeCatalog.electrocardiogram,
                caller: store.caller
            )
            ecg = stored.sample as! HKElectrocardiogram
            points = stored.points
        } catch {
            deliver { fail(error) }
            return
        }
        for index in 0..<points.count {
            if lifecycle.isStopped { return }
            let measurement = ecg.measurement(points, at: index)
            deliver { handler(self, .measurement(measurement)) }
        }
        deliver { handler(self, .done) }
    }
}

/// Reads an electrocardiogram's voltage measurements as an asynchronous
/// sequence.
///
/// ```swift
/// for try await measurement in HKElectrocardiogramQueryDescriptor(ecg).results(for: store) {
///     print(measurement.timeSinceSampleStart)
/// }
/// ```
public struct HKElectrocardiogramQueryDescriptor: HKAsyncSequenceQuery, Sendable {
    /// The electrocardiogram whose measurements are read.
    public var electrocardiogram: HKElectrocardiogram

    /// A descriptor for every measurement of `electrocardiogram`.
    public init(_ electrocardiogram: HKElectrocardiogram) {
        self.electrocardiogram = electrocardiogram
    }

    /// The measurements, as a sequence that ends after the last.
    public typealias Results = QueryResultSequence<HKElectrocardiogram.VoltageMeasurement>

    /// Starts reading.
    public func results(for healthStore: HKHealthStore) -> Results {
        let id = electrocardiogram.uuid
        return SeriesStream.make { () throws in
            let stored = try healthStore.openEngine().seriesSample(
                id,
                type: TypeCatalog.electrocardiogram,
                caller: healthStore.caller
            )
            let ecg = stored.sample as! HKElectrocardiogram
            let points = stored.points
            return (0..<points.count, { ecg.measurement(points, at: $0) })
        }
    }
}
