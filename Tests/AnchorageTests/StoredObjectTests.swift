import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// Objects built with every stored field given (importers, replicas).
@Suite("Stored objects")
struct StoredObjectTests {
    let phone = HKSourceRevision(
        source: HKSource(name: "Phone", bundleIdentifier: "com.example.phone"),
        version: "17.1"
    )
    let id = UUID(uuidString: "8D0F1A52-4B8E-4C1E-9E43-3C5E2E7C6A01")!

    @Test("Stored samples keep their uuid, source, device and metadata; the owner saves them as they are")
    func keepsIdentity() async throws {
        let device = HKDevice(
            name: "Watch",
            manufacturer: "Apple Inc.",
            model: "Watch",
            hardwareVersion: "Watch6,2",
            firmwareVersion: nil,
            softwareVersion: "10.1",
            localIdentifier: nil,
            udiDeviceIdentifier: nil
        )
        let sample = try HKQuantitySample.stored(
            type: stepType,
            quantity: HKQuantity(unit: .count(), doubleValue: 42),
            start: minutes(0),
            end: minutes(5),
            uuid: id,
            sourceRevision: phone,
            device: device,
            metadata: [HKMetadataKeyWasUserEntered: .bool(true)]
        )
        #expect(sample.uuid == id)
        #expect(sample.sourceRevision == phone)
        #expect(sample.device == device)
        #expect(sample is HKCumulativeQuantitySample, "OBJ-12")
        try await withTemporaryStore { store, _ in
            try await store.save(sample)
            let saved = try #require(try await samples(in: store, of: stepType).first)
            #expect(saved.uuid == id)
            #expect(saved.sourceRevision.source.bundleIdentifier == "com.example.phone")
        }
    }

    @Test(
        "Stored objects that break a rule throw instead of stopping the program (OBJ-7, OBJ-10, OBJ-13, OBJ-18, OBJ-22)"
    )
    func rejectsBadInput() throws {
        #expect(throws: HKError.self) {
            try HKQuantitySample.stored(
                type: heartRateType,
                quantity: HKQuantity(unit: .gram(), doubleValue: 1),
                start: minutes(0),
                end: minutes(0),
                uuid: id,
                sourceRevision: phone
            )
        }
        #expect(throws: HKError.self) {
            try HKQuantitySample.stored(
                type: stepType,
                quantity: HKQuantity(unit: .count(), doubleValue: 1),
                start: minutes(5),
                end: minutes(0),
                uuid: id,
                sourceRevision: phone
            )
        }
        #expect(throws: HKError.self) {
            try HKCategorySample.stored(
                type: HKCategoryType(.sleepAnalysis),
                value: 99,
                start: minutes(0),
                end: minutes(60),
                uuid: id,
                sourceRevision: phone
            )
        }
        let workout = try HKWorkout.stored(
            activityType: .running,
            start: minutes(0),
            end: minutes(30),
            duration: 1_800,
            totalDistance: HKQuantity(unit: .meter(), doubleValue: 5_000),
            uuid: UUID(),
            sourceRevision: phone
        )
        #expect(workout.totalDistance?.doubleValue(for: .meter()) == 5_000)
        #expect(throws: HKError.self) {
            try HKCorrelation.stored(
                type: HKCorrelationType(.food),
                start: minutes(0),
                end: minutes(30),
                objects: [workout],
                uuid: UUID(),
                sourceRevision: phone
            )
        }
        #expect(throws: HKError.self) {
            try HKWorkout.stored(
                activityType: .running,
                start: minutes(0),
                end: minutes(30),
                duration: 3_600,
                uuid: UUID(),
                sourceRevision: phone
            )
        }
        #expect(throws: HKError.self) {
            try HKWorkout.stored(
                activityType: .running,
                start: minutes(0),
                end: minutes(30),
                duration: 1_800,
                totalDistance: HKQuantity(unit: .count(), doubleValue: 5),
                uuid: UUID(),
                sourceRevision: phone
            )
        }
    }
}
