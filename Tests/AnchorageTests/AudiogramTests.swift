import AnchorageLog
import AnchorageStoreTesting
import Foundation
import Testing

@testable import Anchorage

@Suite("Audiograms")
struct AudiogramTests {
    static func test(
        _ level: Double,
        _ side: HKAudiogramSensitivityTestSide,
        masked: Bool = false
    ) throws
        -> HKAudiogramSensitivityTest
    {
        try HKAudiogramSensitivityTest(
            sensitivity: HKQuantity(unit: .decibelHearingLevel(), doubleValue: level),
            type: .air,
            masked: masked,
            side: side,
            clampingRange: nil
        )
    }

    static func point(_ hertz: Double, _ tests: [HKAudiogramSensitivityTest]) throws -> HKAudiogramSensitivityPoint {
        try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertz(), doubleValue: hertz), tests: tests)
    }

    @Test(
        "AUD-1: an audiogram saved with HealthKit's initializers comes back point for point; the pre-18.1 accessors read each ear's unmasked test"
    )
    func roundTrip() async throws {
        try await withTemporaryStore { store, _ in
            let points = [
                try Self.point(
                    500,
                    [try Self.test(15, .left), try Self.test(20, .right), try Self.test(35, .right, masked: true)]
                ),
                try Self.point(
                    1_000,
                    [
                        try HKAudiogramSensitivityTest(
                            sensitivity: HKQuantity(unit: .decibelHearingLevel(), doubleValue: 120),
                            type: .air,
                            masked: false,
                            side: .left,
                            clampingRange: try HKAudiogramSensitivityPointClampingRange(
                                lowerBound: nil,
                                upperBound: 120
                            )
                        )
                    ]
                ),
            ]
            let audiogram = HKAudiogramSample(
                sensitivityPoints: points,
                start: minutes(0),
                end: minutes(10),
                device: nil,
                metadata: ["app": "hearing"]
            )
            try await store.save(audiogram)
            let found = try #require(
                try await HKSampleQueryDescriptor(predicates: [.audiogram()], sortDescriptors: []).result(for: store)
                    .first
            )
            #expect(found.sensitivityPoints == points)
            #expect(
                found.sensitivityPoints[1].tests[0].clampingRange?.upperBound?.doubleValue(for: .decibelHearingLevel())
                    == 120
            )
            #expect(try await store.eventLog().checkProjections() == nil)
        }
    }

    @Test("AUD-1: the pre-18.1 forms make and read each ear's unmasked air-conduction test")
    @available(*, deprecated)
    func legacyForms() throws {
        let point = try HKAudiogramSensitivityPoint(
            frequency: HKQuantity(unit: .hertz(), doubleValue: 500),
            leftEarSensitivity: HKQuantity(unit: .decibelHearingLevel(), doubleValue: 15),
            rightEarSensitivity: nil
        )
        #expect(point.tests.map(\.side) == [.left])
        #expect(point.leftEarSensitivity?.doubleValue(for: .decibelHearingLevel()) == 15)
        #expect(point.rightEarSensitivity == nil)
        let masked = try Self.point(500, [try Self.test(40, .right, masked: true), try Self.test(20, .right)])
        #expect(masked.rightEarSensitivity?.doubleValue(for: .decibelHearingLevel()) == 20, "the unmasked test")
        let audiogram = HKAudiogramSample(sensitivityPoints: [point], start: minutes(0), end: minutes(1), metadata: nil)
        #expect(audiogram.sensitivityPoints == [point])
    }

    @Test(
        "AUD-1: out-of-order or repeated frequencies, more than 30 points, wrong units and out-of-range levels are refused with the rule"
    )
    func refused() throws {
        let left = try Self.test(10, .left)
        func expectRule(_ body: () throws -> Void) {
            do {
                try body()
                Issue.record("expected AUD-1")
            } catch let error as HKError {
                #expect(error.rule == "AUD-1", "\(error)")
            } catch {
                Issue.record("expected an HKError, got \(error)")
            }
        }
        expectRule {
            _ = try HKAudiogramSample.validated(
                sensitivityPoints: [try Self.point(1_000, [left]), try Self.point(500, [left])],
                start: minutes(0),
                end: minutes(1)
            )
        }
        expectRule {
            _ = try HKAudiogramSample.validated(
                sensitivityPoints: [try Self.point(500, [left]), try Self.point(500, [left])],
                start: minutes(0),
                end: minutes(1)
            )
        }
        expectRule {
            _ = try HKAudiogramSample.validated(
                sensitivityPoints: try (1...31).map { try Self.point(Double($0) * 100, [left]) },
                start: minutes(0),
                end: minutes(1)
            )
        }
        expectRule { _ = try HKAudiogramSample.validated(sensitivityPoints: [], start: minutes(0), end: minutes(1)) }
        expectRule { _ = try Self.point(0, [left]) }
        expectRule { _ = try Self.point(500, []) }
        expectRule {
            _ = try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .meter(), doubleValue: 500), tests: [left])
        }
        expectRule { _ = try Self.test(200, .left) }
        expectRule {
            _ = try HKAudiogramSensitivityTest(
                sensitivity: HKQuantity(unit: .hertz(), doubleValue: 20),
                type: .air,
                masked: false,
                side: .left,
                clampingRange: nil
            )
        }
        expectRule { _ = try HKAudiogramSensitivityPointClampingRange(lowerBound: nil, upperBound: nil) }
        expectRule { _ = try HKAudiogramSensitivityPointClampingRange(lowerBound: 50, upperBound: 10) }
    }
}
