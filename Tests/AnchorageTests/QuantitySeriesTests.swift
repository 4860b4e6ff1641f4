import AnchorageStoreTesting
import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// Quantity samples of several quantities (SERIES-6): built with
/// `HKQuantitySeriesSampleBuilder`, read back one quantity at a time, and
/// split into their quantities by statistics.
@Suite("Quantity series", .ownThread)
struct QuantitySeriesTests {
    static let bpm = HKUnit.count().unitDivided(by: .minute())
    static let start = iso("2026-05-04T08:00:00Z")

    static func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

    static func builder(_ store: HKHealthStore, _ type: HKQuantityType) -> HKQuantitySeriesSampleBuilder {
        HKQuantitySeriesSampleBuilder(healthStore: store, quantityType: type, startDate: start, device: nil)
    }

    /// Every quantity the series query delivers, through the callback form.
    static func quantities(
        _ store: HKHealthStore,
        _ type: HKQuantityType,
        predicate: NSPredicate? = nil,
        includeSample: Bool = false,
        bySample: Bool = false
    ) async throws -> [(quantity: HKQuantity?, interval: DateInterval?, sample: HKQuantitySample?, done: Bool)] {
        try await withCheckedThrowingContinuation { continuation in
            let calls = LockedBox<[(HKQuantity?, DateInterval?, HKQuantitySample?, Bool)]>([])
            let query = HKQuantitySeriesSampleQuery(quantityType: type, predicate: predicate) {
                _,
                quantity,
                interval,
                sample,
                done,
                error in
                if let error {
                    continuation.resume(throwing: error)
                    return
                }
                calls.mutate { $0.append((quantity, interval, sample, done)) }
                if done { continuation.resume(returning: calls.value.map { ($0.0, $0.1, $0.2, $0.3) }) }
            }
            query.includeSample = includeSample
            query.orderByQuantitySampleStartDate = bySample
            store.execute(query)
        }
    }

    @Test(
        "SERIES-6: a builder's quantities, inserted out of order and replaced at equal starts, come back in start order"
    )
    func builderRoundTrip() async throws {
        try await withTemporaryStore { store, _ in
            let type = HKQuantityType(.heartRate)
            let builder = Self.builder(store, type)
            try builder.insert(HKQuantity(unit: Self.bpm, doubleValue: 90), at: Self.at(120))
            try builder.insert(
                HKQuantity(unit: Self.bpm, doubleValue: 60),
                for: DateInterval(start: Self.at(0), duration: 30)
            )
            try builder.insert(HKQuantity(unit: Self.bpm, doubleValue: 70), at: Self.at(60))
            try builder.insert(HKQuantity(unit: Self.bpm, doubleValue: 80), at: Self.at(60))  // replaces 70
            let samples = try await builder.finishSeries(metadata: ["note": "run"])
            #expect(samples.count == 1)
            let sample = try #require(samples.first as? HKDiscreteQuantitySample)
            #expect(sample.count == 3)
            #expect(sample.startDate == Self.start && sample.endDate == Self.at(120))
            #expect(abs(sample.averageQuantity.doubleValue(for: Self.bpm) - (60 + 80 + 90) / 3.0) < 1e-9)
            #expect(abs(sample.minimumQuantity.doubleValue(for: Self.bpm) - 60) < 1e-9)
            #expect(abs(sample.maximumQuantity.doubleValue(for: Self.bpm) - 90) < 1e-9)
            #expect(abs(sample.mostRecentQuantity.doubleValue(for: Self.bpm) - 90) < 1e-9)
            #expect(sample.mostRecentQuantityDateInterval == DateInterval(start: Self.at(120), duration: 0))

            // A listing carries the count and the aggregates, not the quantities.
            let listed = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: type)],
                sortDescriptors: []
            )
            .result(for: store)
            let read = try #require(listed.first as? HKDiscreteQuantitySample)
            #expect(read.count == 3 && read.maximumQuantity == sample.maximumQuantity)
            #expect(read.metadata?["note"] as? String == "run")

            let calls = try await Self.quantities(store, type, includeSample: true)
            #expect(calls.map { $0.quantity!.doubleValue(for: Self.bpm).rounded() } == [60, 80, 90])
            #expect(calls.map(\.interval!.start) == [Self.at(0), Self.at(60), Self.at(120)])
            #expect(calls[0].interval!.duration == 30)
            #expect(calls.map(\.done) == [false, false, true])
            #expect(calls.allSatisfy { $0.sample?.uuid == sample.uuid })
        }
    }

    @Test("SERIES-6: quantities of several samples interleave by start, or group by sample; plain samples count as one")
    func ordering() async throws {
        try await withTemporaryStore { store, _ in
            let type = HKQuantityType(.stepCount)
            let plain = HKQuantitySample(
                type: type,
                quantity: HKQuantity(unit: .count(), doubleValue: 5),
                start: Self.at(30),
                end: Self.at(40)
            )
            try await store.save(plain)
            let builder = Self.builder(store, type)
            for (offset, steps) in [(0.0, 10.0), (50, 20), (100, 30)] {
                try builder.insert(
                    HKQuantity(unit: .count(), doubleValue: steps),
                    for: DateInterval(start: Self.at(offset), duration: 10)
                )
            }
            let series = try #require(
                try await builder.finishSeries(metadata: nil).first as? HKCumulativeQuantitySample
            )
            #expect(series.sumQuantity.doubleValue(for: .count()) == 60)

            let byStart = try await Self.quantities(store, type)
            #expect(byStart.map { $0.quantity!.doubleValue(for: .count()) } == [10, 5, 20, 30])
            #expect(byStart.allSatisfy { $0.sample == nil }, "no sample without includeSample")
            let bySample = try await Self.quantities(store, type, bySample: true)
            #expect(bySample.map { $0.quantity!.doubleValue(for: .count()) } == [10, 20, 30, 5])

            let descriptor = HKQuantitySeriesSampleQueryDescriptor(
                predicate: .quantitySample(type: type),
                options: .includeSample
            )
            var results: [HKQuantitySeriesSampleQueryDescriptor.Result] = []
            for try await result in descriptor.results(for: store) { results.append(result) }
            #expect(results.map { $0.quantity.doubleValue(for: .count()) } == [10, 5, 20, 30])
            #expect(results.map(\.sample?.uuid) == [series.uuid, plain.uuid, series.uuid, series.uuid])

            // Statistics split the series into its quantities: by minute, 10 + 5 + 20 then 30
            // (its sum spread over its interval would give 37.7 and 27.3).
            let minutes = try await HKStatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: type),
                options: .cumulativeSum,
                anchorDate: Self.start,
                intervalComponents: DateComponents(minute: 1)
            ).result(for: store)
            var sums: [Double] = []
            minutes.enumerateStatistics(from: Self.start, to: Self.at(119)) { statistics, _ in
                sums.append(statistics.sumQuantity()?.doubleValue(for: .count()) ?? 0)
            }
            #expect(sums == [35, 30])

            // A query that finds nothing calls its handler once, done.
            let none = try await Self.quantities(store, HKQuantityType(.distanceCycling))
            #expect(none.count == 1 && none[0].done && none[0].quantity == nil)

        }
    }

    @Test("SERIES-6: the deprecated per-sample form gives each quantity's start date")
    @available(*, deprecated)
    func perSample() async throws {
        try await withTemporaryStore { store, _ in
            let builder = Self.builder(store, HKQuantityType(.stepCount))
            for offset in [0.0, 50, 100] {
                try builder.insert(HKQuantity(unit: .count(), doubleValue: 3), at: Self.at(offset))
            }
            let series = try #require(try await builder.finishSeries(metadata: nil).first)
            let starts: [Date] = try await withCheckedThrowingContinuation { continuation in
                let found = LockedBox<[Date]>([])
                let query = HKQuantitySeriesSampleQuery(sample: series) { _, _, date, done, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        found.mutate { $0.append(date!) }
                        if done { continuation.resume(returning: found.value) }
                    }
                }
                store.execute(query)
            }
            #expect(starts == [Self.at(0), Self.at(50), Self.at(100)])
        }
    }

    @Test(
        "SERIES-5, SERIES-6: bad quantities, an early start, an empty or finished builder, a bad end date are typed errors"
    )
    func builderErrors() async throws {
        try await withTemporaryStore { store, _ in
            let type = HKQuantityType(.heartRate)
            let builder = Self.builder(store, type)
            func rule(_ body: () async throws -> Void) async -> String? {
                do {
                    try await body()
                    return nil
                } catch let error as HKError {
                    return error.rule
                } catch {
                    return "\(error)"
                }
            }
            #expect(
                await rule { try builder.insert(HKQuantity(unit: .meter(), doubleValue: 1), at: Self.at(1)) }
                    == "OBJ-10"
            )
            #expect(
                await rule { try builder.insert(HKQuantity(unit: Self.bpm, doubleValue: 70), at: Self.at(-1)) }
                    == "SERIES-6"
            )
            await #expect(throws: HKError.self) { _ = try await builder.finishSeries(metadata: nil) }
            try builder.insert(
                HKQuantity(unit: Self.bpm, doubleValue: 70),
                for: DateInterval(start: Self.at(10), duration: 20)
            )
            #expect(
                await rule { _ = try await builder.finishSeries(metadata: nil, endDate: Self.at(15)) } == "SERIES-6"
            )
            // A refused value (VAL-1) keeps the builder's quantities for a retry.
            try builder.insert(HKQuantity(unit: Self.bpm, doubleValue: -5), at: Self.at(40))
            #expect(await rule { _ = try await builder.finishSeries(metadata: nil) } == "VAL-1")
            try builder.insert(HKQuantity(unit: Self.bpm, doubleValue: 75), at: Self.at(40))
            let saved = try await builder.finishSeries(metadata: nil, endDate: Self.at(100))
            #expect(saved.map(\.count) == [2] && saved[0].endDate == Self.at(100))
            #expect(
                await rule { try builder.insert(HKQuantity(unit: Self.bpm, doubleValue: 70), at: Self.at(50)) }
                    == "SERIES-5"
            )

            let discarded = Self.builder(store, type)
            try discarded.insert(HKQuantity(unit: Self.bpm, doubleValue: 70), at: Self.at(1))
            discarded.discard()
            #expect(await rule { _ = try await discarded.finishSeries(metadata: nil) } == "SERIES-5")
            let stored = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: type)],
                sortDescriptors: []
            )
            .result(for: store)
            #expect(stored.count == 1, "only the finished series was saved")
        }
    }

    @Test("SERIES-6: past 65,536 quantities a builder saves several samples in one write")
    func splitting() async throws {
        try await withTemporaryStore { store, _ in
            let type = HKQuantityType(.stepCount)
            let builder = Self.builder(store, type)
            let total = QuantitySeries.maximumQuantities + 10
            for index in 0..<total {
                try builder.insert(HKQuantity(unit: .count(), doubleValue: 1), at: Self.at(Double(index)))
            }
            let samples = try await builder.finishSeries(metadata: nil)
            #expect(samples.map(\.count) == [QuantitySeries.maximumQuantities, 10])
            #expect(samples[0].startDate == Self.start && samples[1].endDate == Self.at(Double(total - 1)))
            let sum = try await HKStatisticsQueryDescriptor(
                predicate: .quantitySample(type: type),
                options: .cumulativeSum
            )
            .result(for: store)
            #expect(sum?.sumQuantity()?.doubleValue(for: .count()) == Double(total))
        }
    }

    @Test("SERIES-6: stored series that break the rule are refused by the decoder, never stored out of order")
    func hostileSeries() throws {
        var generator = ObjectGenerator(seed: 61)
        let sample = generator.quantitySeries(quantities: 3...10)
        let bytes = PayloadCodec.encode(sample)
        var decoder = PayloadDecoder()
        #expect(try decoder.decode(bytes).uuid == sample.uuid)
        // Swap two quantities' starts: out of order.
        let points = try #require(sample.series?.points)
        var swapped = points.bytes
        for offset in 0..<8 { swapped.swapAt(offset, QuantitySeries.stride + offset) }
        var tampered = bytes
        tampered.replaceSubrange((bytes.count - swapped.count)..<bytes.count, with: swapped)
        #expect(throws: HKError.self) { try decoder.decode(tampered) }
        // Change a value: the stored aggregates no longer match.
        var changed = bytes
        changed[bytes.count - 1] ^= 0x01
        #expect(throws: HKError.self) { try decoder.decode(changed) }
    }

    @Test("SERIES-6: JSON gives the quantities; a stated quantity must be their sum or average")
    func json() throws {
        var generator = ObjectGenerator(seed: 7)
        let sample = generator.quantitySeries(type: .stepCount, quantities: 2...5)
        let data = try JSONEncoder().encode(HealthObject(sample))
        let back = try JSONDecoder().decode(HealthObject.self, from: data).object as! HKQuantitySample
        #expect(back.series == sample.series && back.quantity == sample.quantity)
        var object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        object["quantity"] = ["unit": "count", "value": 1e9]
        let wrong = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: HKError.self) { try JSONDecoder().decode(HealthObject.self, from: wrong) }
        object["quantity"] = nil
        let computed = try JSONDecoder().decode(HealthObject.self, from: JSONSerialization.data(withJSONObject: object))
        #expect((computed.object as! HKQuantitySample).quantity == sample.quantity)
    }
}
