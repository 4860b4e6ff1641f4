import AnchorageLog
import AnchorageStoreTesting
import Foundation
import Testing

@testable import Anchorage

/// VAL-1: values outside their type's range are refused at save, nothing
/// stored; docs/value-ranges.md lists the table the code holds.
@Suite("Values in range (VAL-1)")
struct ValueRangeTests {
    static func sample(
        _ type: HKQuantityTypeIdentifier,
        _ value: Double,
        _ unit: String,
        hours: Double = 1
    )
        throws -> HKQuantitySample
    {
        let start = Date(timeIntervalSince1970: 1_717_200_000)
        return try HKQuantitySample.validated(
            type: HKQuantityType(type),
            quantity: HKQuantity(unit: try HKUnit.parse(unit), doubleValue: value),
            start: start,
            end: start.addingTimeInterval(hours * 3_600)
        )
    }

    @Test(
        "VAL-1: a negative step count, heart rate or body mass is refused with the rule, nothing stored; the bounds are accepted"
    )
    func refused() async throws {
        try await withTemporaryStore { store, _ in
            let refused: [HKQuantitySample] = [
                try Self.sample(.stepCount, -5, "count"),
                try Self.sample(.heartRate, -60, "count/min"),
                try Self.sample(.heartRate, 0, "count/min"),
                try Self.sample(.heartRate, 301, "count/min"),
                try Self.sample(.bodyMass, -1, "kg"),
                try Self.sample(.bodyMass, 2_300, "lb"),
                try Self.sample(.bodyFatPercentage, 1.5, "%"),
                // A day's maximum in one hour is fine; twice a day's is not.
                try Self.sample(.stepCount, 2_000_001, "count", hours: 48),
                // Cumulative types outside the table: never negative.
                try Self.sample(.dietaryProtein, -3, "g"),
            ]
            let head = try store.eventLog().head.seq
            for sample in refused {
                do {
                    try await store.save([try Self.sample(.stepCount, 10, "count"), sample])
                    Issue.record("\(sample.quantityType.identifier) was saved")
                } catch let error as HKError {
                    #expect(error.code == .errorInvalidArgument && error.rule == "VAL-1", "\(error)")
                    // The message names the type and the range, never the value.
                    #expect(!error.message.contains(String(sample.quantity.value)), "\(error.message)")
                }
            }
            #expect(try store.eventLog().head.seq == head, "nothing of a refused save is stored")
            let accepted: [HKQuantitySample] = [
                try Self.sample(.stepCount, 0, "count"),
                try Self.sample(.heartRate, 1, "count/min"),
                try Self.sample(.heartRate, 300, "count/min"),
                try Self.sample(.bodyMass, 1_000, "kg"),
                try Self.sample(.stepCount, 3_652_000, "count", hours: 24 * 3_652),
                try Self.sample(.bodyMassIndex, 22.5, "count"),
            ]
            try await store.save(accepted)
            #expect(try store.eventLog().head.seq == head + UInt64(accepted.count))
        }
    }

    @Test("VAL-1: saveIfAbsent refuses too; samples built without saving are not refused (the rule is the store's)")
    func onlyAtSave() async throws {
        let negative = try Self.sample(.stepCount, -1, "count")
        #expect(negative.quantity.doubleValue(for: .count()) == -1)
        let head = try await withTemporaryStore { store, _ in
            await #expect(throws: HKError.self) { try await store.saveIfAbsent([negative]) }
            return try store.eventLog().head.seq
        }
        #expect(head == 0)
    }

    @Test("docs/value-ranges.md lists exactly the table the code holds")
    func documented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/value-ranges.md"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| HKQuantityTypeIdentifier") }.map { line in
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let table = ValueRanges.table.map { bounds in
            [
                bounds.identifier.rawValue, bounds.unit, String(Int64(bounds.minimum)), String(Int64(bounds.maximum)),
            ]
        }
        #expect(rows == table)
        for bounds in ValueRanges.table {
            #expect((try? HKUnit.parse(bounds.unit)) != nil, "\(bounds.unit) parses")
            #expect(ValueRanges.bounds(of: HKQuantityType(bounds.identifier)) != nil)
        }
    }
}
