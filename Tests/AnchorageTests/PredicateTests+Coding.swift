import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

// JSON form and implied time bounds of predicates.
extension PredicateTests {
    @Test("every predicate kind round-trips through its JSON form")
    func codable() throws {
        let device = HKDevice(
            name: "W",
            manufacturer: nil,
            model: "M",
            hardwareVersion: nil,
            firmwareVersion: nil,
            softwareVersion: nil,
            localIdentifier: nil,
            udiDeviceIdentifier: nil
        )
        let predicates: [ObjectPredicate] = [
            .constant(true),
            .and([.uuidIn([UUID(), UUID()]), .or([.sourceIn(["a", "b"]), .not(.noCorrelation)])]),
            .sourceRevisionIn([
                ObjectPredicate.RevisionPattern(
                    HKSourceRevision(source: HKSource(name: "n", bundleIdentifier: "b"), version: "1")
                )
            ]),
            .deviceIn([ObjectPredicate.DevicePattern(device)]),
            .deviceProperty(key: HKDevicePropertyKeyName, values: ["x"]),
            .metadataExists(key: "k"),
            .metadataIn(
                key: "k",
                values: [
                    .string("s"), .integer(3), .double(1.5), .bool(false), .date(day),
                    .quantity(HKQuantity(unit: .count(), doubleValue: 2)),
                ]
            ),
            .metadataCompare(key: "k", operator: .notEqualTo, value: .integer(4)),
            .quantityCompare(
                operator: .greaterThanOrEqualTo,
                quantity: HKQuantity(unit: .kilocalorie(), doubleValue: 800)
            ),
            .categoryValueCompare(operator: .lessThan, value: 3),
            .categoryValueIn([1, 2]),
            .dateRange(start: day, end: nil, options: [.strictStartDate, .strictEndDate]),
            .dateRange(start: nil, end: minutes(0.001), options: []),
            .workoutActivityType(.rowing),
            .workoutCompare(
                property: .totalDistance,
                operator: .equalTo,
                value: HKQuantity(unit: .mile(), doubleValue: 3)
            ),
            .inWorkout(UUID()),
        ]
        for predicate in predicates {
            let json = try JSONEncoder().encode(predicate)
            #expect(
                try JSONDecoder().decode(ObjectPredicate.self, from: json) == predicate,
                "\(String(decoding: json, as: UTF8.self))"
            )
        }
    }

    @Test(
        "malformed predicate JSON is an HKError naming the rule it breaks",
        arguments: [
            ("{}", "PRED-14"), ("{\"and\": [], \"or\": []}", "PRED-14"), ("{\"nope\": 1}", "PRED-14"),
            ("{\"dateRange\": {\"start\": \"yesterday\"}}", "PRED-6"),
            ("{\"dateRange\": {\"options\": [\"loose\"]}}", "PRED-4"), ("{\"workoutActivityType\": 999}", "PRED-13"),
            ("{\"deviceProperty\": {\"key\": \"color\", \"values\": []}}", "PRED-9"),
            ("{\"quantityCompare\": {\"operator\": \"~\", \"quantity\": {\"value\": 1, \"unit\": \"kg\"}}}", "PRED-14"),
            ("{\"quantityCompare\": {\"operator\": \"<\", \"quantity\": {\"value\": 1, \"unit\": \"kgg\"}}}", "UNIT-1"),
            ("[1]", "PRED-14"),
        ]
    )
    func malformedJSON(json: String, rule: String) {
        do {
            let decoded = try JSONDecoder().decode(ObjectPredicate.self, from: Data(json.utf8))
            Issue.record("\(json) decoded as \(decoded)")
        } catch let error as HKError {
            #expect(error.code == .errorInvalidArgument && error.rule == rule, "\(json): \(error)")
        } catch {
            Issue.record("\(json): not an HKError: \(error)")
        }
    }

    @Test("the predicate's time bounds contain every sample it matches")
    func timeBounds() throws {
        var random = SeededGenerator(seed: 3)
        let options: [HKQueryOptions] = [[], .strictStartDate, .strictEndDate, [.strictStartDate, .strictEndDate]]
        var matched = 0
        for _ in 0..<300 {
            func range() -> ObjectPredicate {
                let a = Double.random(in: -500...500, using: &random)
                let b = a + Double.random(in: 0...500, using: &random)
                return .dateRange(
                    start: Bool.random(using: &random) ? minutes(a) : nil,
                    end: Bool.random(using: &random) ? minutes(b) : nil,
                    options: options[Int.random(in: 0..<4, using: &random)]
                )
            }
            let shape = Int.random(in: 0..<4, using: &random)
            let predicate: ObjectPredicate = [
                range() && range(), range() || range(), range(), .not(range()) && range(),
            ][shape]
            let bounds = predicate.timeBounds
            // One range bounds what it matches: a bound it has is used.
            if shape == 2, case .dateRange(let start, let end, _) = predicate {
                if start != nil { #expect(bounds.endFrom != nil || bounds.startFrom != nil, "\(predicate)") }
                if end != nil { #expect(bounds.startBefore != nil || bounds.endBefore != nil, "\(predicate)") }
            }
            for _ in 0..<30 {
                let start = Double.random(in: -1200...1200, using: &random)
                let candidate = sample(start, start + Double.random(in: 0...300, using: &random))
                guard predicate.evaluate(candidate) else { continue }
                matched += 1
                if let from = bounds.startFrom { #expect(candidate.startDate >= from) }
                if let before = bounds.startBefore { #expect(candidate.startDate < before) }
                if let from = bounds.endFrom { #expect(candidate.endDate >= from) }
                if let before = bounds.endBefore { #expect(candidate.endDate < before) }
            }
        }
        #expect(matched >= 1_000, "only \(matched) generated samples matched their predicates")
        let strict = ObjectPredicate.dateRange(start: dayStart, end: dayEnd, options: .strictStartDate).timeBounds
        #expect(strict.startFrom == dayStart && strict.startBefore == dayEnd)
    }
}
