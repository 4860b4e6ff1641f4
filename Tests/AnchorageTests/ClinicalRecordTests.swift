import AnchorageLog
import AnchorageStoreTesting
import Foundation
import Testing

@testable import Anchorage

@Suite("Clinical records")
struct ClinicalRecordTests {
    static func record(
        _ type: HKClinicalTypeIdentifier,
        _ fhir: HKFHIRResourceType,
        id: String
    ) throws -> HKClinicalRecord {
        try HKClinicalRecord.stored(
            type: HKClinicalType(type),
            displayName: "Record \(id)",
            fhirResource: try HKFHIRResource(
                resourceType: fhir,
                identifier: id,
                data: Data(#"{"resourceType":"\#(fhir.rawValue)","id":"\#(id)"}"#.utf8),
                sourceURL: URL(string: "https://fhir.example.org/\(id)"),
                fhirVersion: .primaryR4()
            ),
            start: minutes(0),
            end: minutes(0),
            uuid: UUID(),
            sourceRevision: HKSourceRevision(
                source: HKSource(name: "Clinic", bundleIdentifier: "com.example.clinic"),
                version: nil
            )
        )
    }

    @Test(
        "CLIN-1: records come back with their FHIR resource byte for byte; the FHIR predicates find exactly their matches"
    )
    func roundTrip() async throws {
        try await withTemporaryStore { store, _ in
            let flu = try Self.record(.immunizationRecord, .immunization, id: "imm-1")
            let bloodPressure = try Self.record(.vitalSignRecord, .observation, id: "obs-2")
            try await store.save([flu, bloodPressure])
            let found = try await HKSampleQueryDescriptor(
                predicates: [.clinicalRecord(type: HKClinicalType(.immunizationRecord))],
                sortDescriptors: []
            ).result(for: store)
            #expect(found.first?.fhirResource == flu.fhirResource)
            #expect(found.first?.clinicalType == HKClinicalType(.immunizationRecord))
            let byIdentifier = try await HKSampleQueryDescriptor(
                predicates: [
                    .clinicalRecord(
                        type: HKClinicalType(.vitalSignRecord),
                        predicate: HKQuery.predicateForClinicalRecords(
                            from: HKSource(name: "Clinic", bundleIdentifier: "com.example.clinic"),
                            fhirResourceType: .observation,
                            identifier: "obs-2"
                        )
                    )
                ],
                sortDescriptors: []
            ).result(for: store)
            #expect(byIdentifier.map(\.uuid) == [bloodPressure.uuid])
            #expect(try await store.eventLog().checkProjections() == nil)
            #expect(HKFHIRVersion.primaryDSTU2().fhirRelease == .dstu2)
            #expect(try HKFHIRVersion(fromVersionString: "4.0.1") == .primaryR4())
            #expect(throws: HKError.self) { try HKFHIRVersion(fromVersionString: "4.0") }
        }
    }

    @Test(
        "AUTH-13: apps cannot share clinical types; reading them waits for the owner even when the policy grants everything else"
    )
    func ownAuthorization() async throws {
        var configuration = HKHealthStore.Configuration.forTests
        configuration.authorizationPolicy = .grantAll
        try await withTemporaryStore(configuration: configuration) { owner, directory in
            try await owner.save(try Self.record(.immunizationRecord, .immunization, id: "imm-1"))
            let app = HKHealthStore(
                directory: directory,
                principal: HKSource(name: "Reader", bundleIdentifier: "com.example.reader"),
                configuration: configuration
            )
            let immunizations = HKClinicalType(.immunizationRecord)
            await expectCode(.errorInvalidArgument, rule: "AUTH-13") {
                try await app.requestAuthorization(toShare: [immunizations], read: [])
            }
            try await app.requestAuthorization(toShare: [], read: [immunizations, HKQuantityType(.stepCount)])
            let hidden = try? await HKSampleQueryDescriptor(
                predicates: [.clinicalRecord(type: immunizations)],
                sortDescriptors: []
            )
            .result(for: app)
            #expect(hidden?.isEmpty ?? true, "not granted yet")
            #expect(
                try await HKSampleQueryDescriptor(
                    predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
                    sortDescriptors: []
                ).result(for: app).isEmpty
            )
            try await owner.setAuthorization(
                for: HKSource(name: "Reader", bundleIdentifier: "com.example.reader"),
                toShare: [],
                read: [immunizations],
                granted: true
            )
            let shown = try await HKSampleQueryDescriptor(
                predicates: [.clinicalRecord(type: immunizations)],
                sortDescriptors: []
            )
            .result(for: app)
            #expect(shown.count == 1)
            await app.close()
        }
    }
}
