import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import HealthKit
import Testing

/// Quantity series code written as HealthKit's documentation shows it:
/// `import HealthKit`, a module-qualified name, the callback forms.
@Suite("Ports: quantity series under import HealthKit")
struct QuantitySeriesPortTests {
    @Test("SERIES-6: a heart-rate series built, then read with HKQuantitySeriesSampleQuery, as the documentation shows")
    func buildAndRead() async throws {
        try await withTemporaryStore { healthStore, _ in
            let heartRateType = HKQuantityType.quantityType(forIdentifier: .heartRate)!
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let builder = HKQuantitySeriesSampleBuilder(
                healthStore: healthStore,
                quantityType: heartRateType,
                startDate: start,
                device: HKDevice.local()
            )
            let unit = HealthKit.HKUnit.count().unitDivided(by: HealthKit.HKUnit.minute())
            for (second, bpm) in [(0.0, 71.0), (5, 74), (10, 78), (15, 80)] {
                try builder.insert(HKQuantity(unit: unit, doubleValue: bpm), at: start.addingTimeInterval(second))
            }
            let samples: [HKQuantitySample] = try await withCheckedThrowingContinuation { continuation in
                builder.finishSeries(metadata: nil) { samples, error in
                    if let samples {
                        continuation.resume(returning: samples)
                    } else {
                        continuation.resume(throwing: error!)
                    }
                }
            }
            #expect(samples.count == 1 && samples[0].count == 4)
            let average = (samples[0] as? HKDiscreteQuantitySample)?.averageQuantity.doubleValue(for: unit)
            #expect(abs((average ?? 0) - 75.75) < 1e-9)

            let values: [Double] = try await withCheckedThrowingContinuation { continuation in
                let found = LockedBox<[Double]>([])
                let query = HKQuantitySeriesSampleQuery(quantityType: heartRateType, predicate: nil) {
                    query,
                    quantity,
                    dateInterval,
                    quantitySample,
                    done,
                    error in
                    if let error {
                        continuation.resume(throwing: error)
                        return
                    }
                    if let quantity { found.mutate { $0.append(quantity.doubleValue(for: unit)) } }
                    if done { continuation.resume(returning: found.value) }
                }
                healthStore.execute(query)
            }
            #expect(values.map { $0.rounded() } == [71, 74, 78, 80])
        }
    }
}
