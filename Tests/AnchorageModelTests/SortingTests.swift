import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageModel

@Suite("Sorting (OBJ-8, SQ-3)")
struct SortingTests {
    @Test("HealthKit's NSSortDescriptor(key:ascending:) with every sort identifier converts")
    func identifiers() throws {
        let pairs: [(String, SampleSortDescriptor.Key)] = [
            (HKSampleSortIdentifierStartDate, .startDate), (HKSampleSortIdentifierEndDate, .endDate),
            (HKWorkoutSortIdentifierDuration, .duration), (HKWorkoutSortIdentifierTotalDistance, .totalDistance),
            (HKWorkoutSortIdentifierTotalEnergyBurned, .totalEnergyBurned),
            (HKWorkoutSortIdentifierTotalSwimmingStrokeCount, .totalSwimmingStrokeCount),
            (HKWorkoutSortIdentifierTotalFlightsClimbed, .totalFlightsClimbed),
        ]
        for (identifier, key) in pairs {
            for ascending in [true, false] {
                let descriptor = try SampleSortDescriptor(NSSortDescriptor(key: identifier, ascending: ascending))
                #expect(descriptor == SampleSortDescriptor(key, ascending: ascending))
            }
        }
        #expect { try SampleSortDescriptor(NSSortDescriptor(key: "quantity", ascending: true)) } throws: {
            ($0 as? HKError)?.rule == "OBJ-8"
        }
    }

    @Test("sorting by several keys; ties keep the given (anchor) order, so the result is deterministic")
    func deterministicTies() {
        let type = HKQuantityType(.stepCount)
        let one = HKQuantity(unit: .count(), doubleValue: 1)
        var samples: [HKQuantitySample] = []
        for index in 0..<40 {
            let start = minutes(Double(index % 4))
            let end = minutes(Double(index % 4 + index % 3))
            samples.append(HKQuantitySample(type: type, quantity: one, start: start, end: end))
        }
        let descriptors = [SampleSortDescriptor(.startDate, ascending: false), SampleSortDescriptor(.endDate)]
        let sorted = SampleSortDescriptor.sort(samples, by: descriptors)
        #expect(SampleSortDescriptor.sort(samples, by: descriptors).map(\.uuid) == sorted.map(\.uuid))
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            #expect(a.startDate >= b.startDate)
            if a.startDate == b.startDate {
                #expect(a.endDate <= b.endDate)
                if a.endDate == b.endDate {
                    #expect(samples.firstIndex(of: a)! < samples.firstIndex(of: b)!)
                }
            }
        }
        #expect(SampleSortDescriptor.sort(samples, by: []).map(\.uuid) == samples.map(\.uuid))
    }

    @Test("workouts sort by totals in base units; missing totals first")
    func workoutTotals() {
        let short = HKWorkout(
            activityType: .running,
            start: day,
            end: minutes(10),
            workoutEvents: nil,
            totalEnergyBurned: nil,
            totalDistance: HKQuantity(unit: .mile(), doubleValue: 1),
            metadata: nil
        )
        let long = HKWorkout(
            activityType: .running,
            start: day,
            end: minutes(10),
            workoutEvents: nil,
            totalEnergyBurned: nil,
            totalDistance: HKQuantity(unit: .meter(), doubleValue: 1700),
            metadata: nil
        )
        let none = HKWorkout(activityType: .yoga, start: day, end: minutes(60))
        let sorted = SampleSortDescriptor.sort([long, none, short], by: [SampleSortDescriptor(.totalDistance)])
        #expect(sorted.map(\.uuid) == [none, short, long].map(\.uuid))
        let byDuration = SampleSortDescriptor.sort(
            [none, short],
            by: [SampleSortDescriptor(.duration, ascending: false)]
        )
        #expect(byDuration.first == none)
    }
}
