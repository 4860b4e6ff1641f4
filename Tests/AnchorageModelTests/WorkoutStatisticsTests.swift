import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageModel

@Suite("Workout statistics (OBJ-21)")
struct WorkoutStatisticsTests {
    let start = Date(timeIntervalSince1970: 1_767_999_900)
    var end: Date { start.addingTimeInterval(2_500) }
    let perMinute = HKUnit.count().unitDivided(by: .minute())

    func workout(_ statistics: [HKStatistics]) throws(HKError) -> HKWorkout {
        try HKWorkout.stored(
            activityType: .running,
            start: start,
            end: end,
            duration: 2_500,
            statistics: statistics,
            uuid: UUID(),
            sourceRevision: HKSourceRevision(source: HKSource(name: "Watch", bundleIdentifier: "watch"), version: nil)
        )
    }

    @Test("OBJ-21: statistics(for:) and allStatistics answer with what was recorded, in the canonical unit")
    func answers() throws {
        let run = try workout([
            try .recorded(
                quantityType: HKQuantityType(.distanceWalkingRunning),
                startDate: start,
                endDate: end,
                sum: HKQuantity(unit: .mile(), doubleValue: 4.81902)
            ),
            try .recorded(
                quantityType: HKQuantityType(.heartRate),
                startDate: start,
                endDate: end,
                average: HKQuantity(unit: perMinute, doubleValue: 152.4),
                minimum: HKQuantity(unit: perMinute, doubleValue: 96),
                maximum: HKQuantity(unit: perMinute, doubleValue: 171)
            ),
        ])
        let distance = try #require(run.statistics(for: HKQuantityType(.distanceWalkingRunning)))
        #expect(abs((distance.sumQuantity()?.doubleValue(for: .mile()) ?? 0) - 4.81902) < 1e-9)
        #expect(distance.averageQuantity() == nil, "only the values recorded")
        let heart = try #require(run.allStatistics[HKQuantityType(.heartRate)])
        #expect(heart.averageQuantity()?.doubleValue(for: perMinute) == 152.4)
        #expect(heart.minimumQuantity()?.doubleValue(for: perMinute) == 96)
        #expect(heart.maximumQuantity()?.doubleValue(for: perMinute) == 171)
        #expect(heart.sumQuantity() == nil)
        #expect(run.allStatistics.count == 2)
        #expect(run.statistics(for: HKQuantityType(.stepCount)) == nil)

        // Through the payload and through JSON, unchanged.
        let decoded = try #require(try PayloadCodec.decode(PayloadCodec.encode(run)) as? HKWorkout)
        #expect(
            decoded.recordedStatistics.map(StatisticsFields.init) == run.recordedStatistics.map(StatisticsFields.init)
        )
        let json = try JSONEncoder().encode(HealthObject(run))
        let back = try #require(try JSONDecoder().decode(HealthObject.self, from: json).object as? HKWorkout)
        #expect(back.recordedStatistics.map(StatisticsFields.init) == run.recordedStatistics.map(StatisticsFields.init))
    }

    @Test("OBJ-21: a workout without statistics keeps its payload bytes; bad statistics are refused")
    func rules() throws {
        let plain = try workout([])
        let bytes = PayloadCodec.encode(plain)
        #expect((try PayloadCodec.decode(bytes) as? HKWorkout)?.recordedStatistics.isEmpty == true)
        let steps = try HKStatistics.recorded(
            quantityType: HKQuantityType(.stepCount),
            startDate: start,
            endDate: end,
            sum: HKQuantity(unit: .count(), doubleValue: 6_711)
        )
        #expect(PayloadCodec.encode(try workout([steps])).count > bytes.count)
        #expect(throws: HKError.self, "two statistics of one type") { try workout([steps, steps]) }
        #expect(throws: HKError.self, "a unit the type does not accept") {
            try HKStatistics.recorded(
                quantityType: HKQuantityType(.stepCount),
                startDate: start,
                endDate: end,
                sum: HKQuantity(unit: .meter(), doubleValue: 1)
            )
        }
        #expect(throws: HKError.self, "no value") {
            try HKStatistics.recorded(quantityType: HKQuantityType(.stepCount), startDate: start, endDate: end)
        }
        #expect(throws: HKError.self, "start after end") {
            try HKStatistics.recorded(
                quantityType: HKQuantityType(.stepCount),
                startDate: end,
                endDate: start,
                sum: HKQuantity(unit: .count(), doubleValue: 1)
            )
        }
        // A payload whose statistics are cut short is refused, not misread.
        var cut = PayloadCodec.encode(try workout([steps]))
        cut.removeLast(3)
        #expect(throws: HKError.self) { try PayloadCodec.decode(cut) }
    }
}
