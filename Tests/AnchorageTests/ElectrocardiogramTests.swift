import AnchorageLog
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// A 30 s recording at 512 Hz whose voltages are a sine of `microvolts` amplitude.
func recording(
    _ classification: HKElectrocardiogram.Classification,
    symptoms: HKElectrocardiogram.SymptomsStatus = .none,
    count: Int = 15_360,
    at start: Date = minutes(0)
) throws -> HKElectrocardiogram {
    let volts = (0..<count).map { sin(Double($0) / 40) * 800 / 1_000_000 }
    return try HKElectrocardiogram.stored(
        start: start,
        end: start.addingTimeInterval(30),
        classification: classification,
        symptomsStatus: symptoms,
        averageHeartRate: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 64),
        samplingFrequency: HKQuantity(unit: .hertz(), doubleValue: 512),
        voltages: [.appleWatchSimilarToLeadI: volts],
        uuid: UUID(),
        sourceRevision: HKSourceRevision(
            source: HKSource(name: "Watch", bundleIdentifier: "com.apple.NanoHeartRhythm"),
            version: "10.1"
        )
    )
}

@Suite("Electrocardiograms in a store")
struct ElectrocardiogramTests {
    @Test(
        "ECG-1: a recording is listed with its fields and count; its 15,360 voltages come back in order, with their times"
    )
    func roundTrip() async throws {
        try await withTemporaryStore { store, _ in
            let ecg = try recording(.sinusRhythm)
            try await store.save(ecg)
            let listed = try await HKSampleQueryDescriptor(predicates: [.electrocardiogram()], sortDescriptors: [])
                .result(for: store)
            #expect(listed.count == 1)
            let found = try #require(listed.first)
            #expect(found.points == nil, "a listing leaves the voltages in the store")
            #expect(found.numberOfVoltageMeasurements == 15_360)
            #expect(found.classification == .sinusRhythm)
            #expect(found.symptomsStatus == HKElectrocardiogram.SymptomsStatus.none)
            #expect(found.averageHeartRate?.doubleValue(for: HKUnit(from: "count/min")) == 64)
            #expect(found.samplingFrequency?.doubleValue(for: .hertz()) == 512)

            let results = Collector<HKElectrocardiogramQuery.Result>()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                store.execute(
                    HKElectrocardiogramQuery(found) { _, result in
                        results.append(result)
                        if case .measurement = result { return }
                        continuation.resume()
                    }
                )
            }
            let measurements = results.all.compactMap { result -> HKElectrocardiogram.VoltageMeasurement? in
                if case .measurement(let measurement) = result { return measurement }
                return nil
            }
            #expect(measurements.count == 15_360)
            guard case .done = results.all.last else {
                Issue.record("the last result is .done")
                return
            }
            let expected = ecg.points!
            for index in [0, 1, 511, 512, 15_359] {
                #expect(
                    measurements[index].quantity(for: .appleWatchSimilarToLeadI)?.doubleValue(for: .volt())
                        == expected.double(index, field: 0)
                )
                #expect(measurements[index].timeSinceSampleStart == Double(index) / 512)
            }

            var streamed = 0
            for try await measurement in HKElectrocardiogramQueryDescriptor(found).results(for: store) {
                #expect(measurement == measurements[streamed])
                streamed += 1
            }
            #expect(streamed == 15_360)

            // The callback form with an optional measurement and a done flag.
            let done = Collector<Bool>()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                store.execute(
                    HKElectrocardiogramQuery(electrocardiogram: found) { _, measurement, finished, error in
                        #expect(error == nil)
                        done.append(finished)
                        #expect((measurement == nil) == finished)
                        if finished { continuation.resume() }
                    }
                )
            }
            #expect(done.count == 15_361)
            #expect(try await store.eventLog().checkProjections() == nil)
        }
    }

    @Test("ECG-1: predicates by classification and symptoms status find exactly the matching recordings")
    func predicates() async throws {
        try await withTemporaryStore { store, _ in
            let all = [
                try recording(.sinusRhythm, count: 10),
                try recording(.atrialFibrillation, symptoms: .present, count: 10),
                try recording(.inconclusivePoorReading, count: 0), try recording(.atrialFibrillation, count: 10),
            ]
            try await store.save(all)
            func uuids(_ predicate: NSPredicate) async throws -> Set<UUID> {
                Set(
                    try await samples(in: store, of: HKObjectType.electrocardiogramType(), predicate: predicate).map(
                        \.uuid
                    )
                )
            }
            #expect(
                try await uuids(HKQuery.predicateForElectrocardiograms(classification: .atrialFibrillation))
                    == [all[1].uuid, all[3].uuid]
            )
            #expect(try await uuids(HKQuery.predicateForElectrocardiograms(symptomsStatus: .present)) == [all[1].uuid])
            #expect(try await uuids(HKQuery.predicateForElectrocardiograms(classification: .notSet)).isEmpty)
        }
    }

    @Test("ECG-1, SERIES-4: invalid recordings are refused with a rule; a deleted one's query fails with errorNoData")
    func invalidAndDeleted() async throws {
        let start = minutes(0)
        let revision = HKSourceRevision(
            source: HKSource(name: "Watch", bundleIdentifier: "com.example.watch"),
            version: nil
        )
        #expect(throws: HKError.self) {
            try HKElectrocardiogram.stored(
                start: start,
                end: start,
                classification: .sinusRhythm,
                symptomsStatus: .none,
                averageHeartRate: nil,
                samplingFrequency: nil,
                voltages: [.appleWatchSimilarToLeadI: [0.001]],
                uuid: UUID(),
                sourceRevision: revision
            )
        }
        #expect(throws: HKError.self) {
            try HKElectrocardiogram.stored(
                start: start,
                end: start,
                classification: .sinusRhythm,
                symptomsStatus: .none,
                averageHeartRate: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 900),
                samplingFrequency: nil,
                voltages: [:],
                uuid: UUID(),
                sourceRevision: revision
            )
        }
        #expect(throws: HKError.self) {
            try HKElectrocardiogram.stored(
                start: start,
                end: start,
                classification: .sinusRhythm,
                symptomsStatus: .none,
                averageHeartRate: nil,
                samplingFrequency: HKQuantity(unit: .hertz(), doubleValue: 512),
                voltages: [.appleWatchSimilarToLeadI: [.nan]],
                uuid: UUID(),
                sourceRevision: revision
            )
        }
        try await withTemporaryStore { store, _ in
            let ecg = try recording(.sinusRhythm, count: 100)
            try await store.save(ecg)
            try await store.delete(ecg)
            await expectCode(.errorNoData, rule: "SERIES-4") {
                for try await _ in HKElectrocardiogramQueryDescriptor(ecg).results(for: store) {}
            }
        }
    }
}
