import AnchorageStoreTesting
import Foundation
import Testing

@testable import Anchorage

/// Source and device texts longer than the payload format holds are refused
/// on save with a rule id, never stored where no query could read them.
@Suite("Source and device text limits (OBJ-2, OBJ-3)")
struct StoreTextLimitTests {
    static func sample(
        name: String,
        bundle: String = "com.example.long",
        deviceName: String? = nil
    ) throws -> HKQuantitySample {
        try HKQuantitySample.stored(
            type: stepType,
            quantity: HKQuantity(unit: .count(), doubleValue: 3),
            start: minutes(0),
            end: minutes(1),
            uuid: UUID(),
            sourceRevision: HKSourceRevision(
                source: HKSource(name: name, bundleIdentifier: bundle),
                version: nil
            ),
            device: deviceName.map {
                HKDevice(
                    name: $0,
                    manufacturer: nil,
                    model: nil,
                    hardwareVersion: nil,
                    firmwareVersion: nil,
                    softwareVersion: nil,
                    localIdentifier: nil,
                    udiDeviceIdentifier: nil
                )
            }
        )
    }

    @Test("OBJ-2, OBJ-3: a source name or device property over 4,096 bytes is refused; 4,096 is stored and read back")
    func limits() async throws {
        try await withTemporaryStore { store, directory in
            let longest = String(repeating: "é", count: 2_048)  // 4,096 UTF-8 bytes
            let tooLong = longest + "x"
            await #expect {
                try await store.save(try Self.sample(name: tooLong))
            } throws: { error in
                (error as? HKError)?.rule == "OBJ-2" && (error as? HKError)?.code == .errorInvalidArgument
            }
            #expect {
                try Self.sample(name: "Phone", deviceName: tooLong)
            } throws: { error in
                (error as? HKError)?.rule == "OBJ-3"
            }
            // HealthKit's initializers take any device: the store refuses it.
            let device = HKDevice(
                name: tooLong,
                manufacturer: nil,
                model: nil,
                hardwareVersion: nil,
                firmwareVersion: nil,
                softwareVersion: nil,
                localIdentifier: nil,
                udiDeviceIdentifier: nil
            )
            await #expect {
                try await store.save(
                    HKQuantitySample(
                        type: stepType,
                        quantity: HKQuantity(unit: .count(), doubleValue: 1),
                        start: minutes(0),
                        end: minutes(1),
                        device: device,
                        metadata: nil
                    )
                )
            } throws: { error in
                (error as? HKError)?.rule == "OBJ-3"
            }
            // An app whose name is too long: its saves are stamped with it and refused.
            let app = HKHealthStore(
                directory: directory,
                principal: HKSource(name: tooLong, bundleIdentifier: "com.example.long"),
                configuration: .forTests
            )
            try await store.setAuthorization(
                for: HKSource(name: tooLong, bundleIdentifier: "com.example.long"),
                toShare: [stepType],
                read: [],
                granted: true
            )
            await #expect {
                try await app.save(
                    HKQuantitySample(
                        type: stepType,
                        quantity: HKQuantity(unit: .count(), doubleValue: 1),
                        start: minutes(0),
                        end: minutes(1)
                    )
                )
            } throws: { error in
                (error as? HKError)?.rule == "OBJ-2"
            }
            await app.close()
            #expect(try await samples(in: store, of: stepType).isEmpty, "nothing of a refused save is stored")

            let kept = try Self.sample(name: longest, deviceName: longest)
            try await store.save(kept)
            let read = try await samples(in: store, of: stepType)
            #expect(read.map(\.uuid) == [kept.uuid])
            #expect(read.first?.sourceRevision.source.name == longest)
            #expect(read.first?.device?.name == longest)
        }
    }

    @Test(
        "OBJ-2: a source's bundle identifier over 255 bytes (a part of index keys) is refused, nothing stored; 255 bytes are stored and listed"
    )
    func bundleIdentifierLimit() async throws {
        try await withTemporaryStore { store, _ in
            let longest = "com." + String(repeating: "x", count: 251)
            await #expect {
                try await store.save(try Self.sample(name: "Phone", bundle: longest + "x"))
            } throws: { error in
                (error as? HKError)?.rule == "OBJ-2" && "\(error)".contains("bundle identifier")
            }
            let saved = try Self.sample(name: "Phone", bundle: longest)
            try await store.save(saved)
            let sources = try await HKSourceQueryDescriptor(predicate: .quantitySample(type: stepType)).result(
                for: store
            )
            #expect(sources.map(\.bundleIdentifier) == [longest])
            let samples = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: stepType)],
                sortDescriptors: []
            )
            .result(for: store)
            #expect(samples.map(\.uuid) == [saved.uuid])
        }
    }
}
