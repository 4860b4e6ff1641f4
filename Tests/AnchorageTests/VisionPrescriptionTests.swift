import AnchorageLog
import AnchorageStoreTesting
import Foundation
import Testing

@testable import Anchorage

@Suite("Vision prescriptions")
struct VisionPrescriptionTests {
    static func diopters(_ value: Double) -> HKQuantity { HKQuantity(unit: .diopter(), doubleValue: value) }
    static func millimetres(_ value: Double) -> HKQuantity {
        HKQuantity(unit: .meterUnit(with: .milli), doubleValue: value)
    }

    @Test(
        "VISION-1: glasses, contacts and image-only prescriptions made with HealthKit's initializers come back as they were, each as its own class"
    )
    func roundTrip() async throws {
        try await withTemporaryStore { store, _ in
            let prism = HKVisionPrism(
                verticalAmount: HKQuantity(unit: .prismDiopter(), doubleValue: 1),
                verticalBase: .up,
                horizontalAmount: HKQuantity(unit: .prismDiopter(), doubleValue: 0),
                horizontalBase: .none,
                eye: .right
            )
            #expect(prism.amount.doubleValue(for: .prismDiopter()) == 1)
            #expect(prism.angle.doubleValue(for: .degreeAngle()) == 90)
            let right = HKGlassesLensSpecification(
                sphere: Self.diopters(-1.25),
                cylinder: Self.diopters(-0.5),
                axis: HKQuantity(unit: .degreeAngle(), doubleValue: 90),
                addPower: nil,
                vertexDistance: Self.millimetres(12),
                prism: prism,
                farPupillaryDistance: Self.millimetres(32),
                nearPupillaryDistance: nil
            )
            let glasses = HKGlassesPrescription(
                rightEyeSpecification: right,
                leftEyeSpecification: nil,
                dateIssued: minutes(0),
                expirationDate: minutes(60 * 24 * 365),
                device: nil,
                metadata: nil
            )
            let contacts = HKContactsPrescription(
                rightEyeSpecification: HKContactsLensSpecification(
                    sphere: Self.diopters(-2),
                    cylinder: nil,
                    axis: nil,
                    addPower: nil,
                    baseCurve: Self.millimetres(8.6),
                    diameter: Self.millimetres(14.2)
                ),
                leftEyeSpecification: nil,
                brand: "Acuvue",
                dateIssued: minutes(1),
                expirationDate: nil,
                device: nil,
                metadata: nil
            )
            let image = HKVisionPrescription(
                type: .glasses,
                dateIssued: minutes(2),
                expirationDate: nil,
                device: nil,
                metadata: nil
            )
            try await store.save([glasses, contacts, image])
            let found = try await HKSampleQueryDescriptor(
                predicates: [.visionPrescription()],
                sortDescriptors: [SortDescriptor(\.startDate)]
            )
            .result(for: store)
            #expect(found.count == 3)
            let savedGlasses = try #require(found[0] as? HKGlassesPrescription)
            #expect(savedGlasses.rightEye == right)
            #expect(savedGlasses.rightEye?.prism?.verticalBase == .up)
            #expect(savedGlasses.expirationDate == glasses.expirationDate)
            let savedContacts = try #require(found[1] as? HKContactsPrescription)
            #expect(savedContacts.brand == "Acuvue")
            #expect(savedContacts.rightEye?.diameter?.doubleValue(for: .meterUnit(with: .milli)) == 14.2)
            #expect(type(of: found[2]) == HKVisionPrescription.self)
            #expect(found[2].prescriptionType == .glasses && found[2].expirationDate == nil)
            #expect(try await store.eventLog().checkProjections() == nil)
        }
    }

    @Test("VISION-1: per-object read authorization is asked for vision prescriptions only")
    func perObjectAuthorization() async throws {
        try await withTemporaryStore { store, _ in
            try await store.requestPerObjectReadAuthorization(
                for: HKObjectType.visionPrescriptionType(),
                predicate: nil
            )
            await expectCode(.errorInvalidArgument) {
                try await store.requestPerObjectReadAuthorization(for: HKQuantityType(.stepCount), predicate: nil)
            }
        }
    }

    @Test("VISION-1: a lens value out of range or a prescription ending before its issue is refused with the rule")
    func refused() throws {
        var lens = LensValues(sphere: 60)
        #expect(throws: HKError.self) { try lens.check() }
        lens = LensValues(sphere: -1)
        lens.axis = 200
        #expect(throws: HKError.self) { try lens.check() }
        #expect(throws: HKError.self) {
            try HKVisionPrescription.make(
                class: 2,
                type: .glasses,
                expiration: nil,
                right: nil,
                left: nil,
                brand: "x",
                .new(start: minutes(0), end: minutes(0), device: nil, metadata: nil)
            )
        }
        #expect(throws: HKError.self) {
            try HKVisionPrescription.make(
                class: 0,
                type: .glasses,
                expiration: minutes(-10),
                right: nil,
                left: nil,
                brand: nil,
                .new(start: minutes(0), end: minutes(-10), device: nil, metadata: nil)
            )
        }
    }
}
