/// The values a quantity type accepts (rule VAL-1): a negative step count,
/// heart rate or body mass is refused, as Health Connect refuses values
/// outside the range it publishes for each record type. HealthKit is silent
/// on ranges; these follow Health Connect's where it has one, and every
/// cumulative type (a sum of amounts) accepts no negative value.
/// docs/value-ranges.md lists the table (a test keeps the two equal).
///
/// Checked when an object is saved (Swift, HTTP and the CLI all save
/// through the store) and by the importer, which counts what it refuses.
/// Stored data is never checked again: a store written before the rule
/// reads as it was.
package enum ValueRanges {
    /// One type's bounds, inclusive, in `unit`.
    package struct Bounds: Sendable {
        package let identifier: HKQuantityTypeIdentifier
        package let unit: String
        package let minimum: Double
        package let maximum: Double
    }

    /// The table, in the order docs/value-ranges.md lists it.
    package static let table: [Bounds] = [
        Bounds(identifier: .stepCount, unit: "count", minimum: 0, maximum: 1_000_000),
        Bounds(identifier: .heartRate, unit: "count/min", minimum: 1, maximum: 300),
        Bounds(identifier: .restingHeartRate, unit: "count/min", minimum: 1, maximum: 300),
        Bounds(identifier: .walkingHeartRateAverage, unit: "count/min", minimum: 1, maximum: 300),
        Bounds(identifier: .bodyMass, unit: "kg", minimum: 0, maximum: 1_000),
        Bounds(identifier: .leanBodyMass, unit: "kg", minimum: 0, maximum: 1_000),
        Bounds(identifier: .height, unit: "m", minimum: 0, maximum: 3),
        Bounds(identifier: .bodyFatPercentage, unit: "%", minimum: 0, maximum: 1),
        Bounds(identifier: .oxygenSaturation, unit: "%", minimum: 0, maximum: 1),
        Bounds(identifier: .bodyTemperature, unit: "degC", minimum: 0, maximum: 100),
        Bounds(identifier: .respiratoryRate, unit: "count/min", minimum: 0, maximum: 1_000),
        Bounds(identifier: .bloodPressureSystolic, unit: "mmHg", minimum: 20, maximum: 200),
        Bounds(identifier: .bloodPressureDiastolic, unit: "mmHg", minimum: 10, maximum: 180),
        Bounds(identifier: .bloodGlucose, unit: "mg/dL", minimum: 0, maximum: 900),
        Bounds(identifier: .vo2Max, unit: "mL/min·kg", minimum: 0, maximum: 100),
        Bounds(identifier: .distanceWalkingRunning, unit: "m", minimum: 0, maximum: 1_000_000),
        Bounds(identifier: .distanceCycling, unit: "m", minimum: 0, maximum: 1_000_000),
        Bounds(identifier: .distanceSwimming, unit: "m", minimum: 0, maximum: 1_000_000),
        Bounds(identifier: .activeEnergyBurned, unit: "kcal", minimum: 0, maximum: 1_000_000),
        Bounds(identifier: .basalEnergyBurned, unit: "kcal", minimum: 0, maximum: 1_000_000),
        Bounds(identifier: .flightsClimbed, unit: "count", minimum: 0, maximum: 1_000_000),
        Bounds(identifier: .dietaryWater, unit: "L", minimum: 0, maximum: 100),
    ]

    /// The table by kind code: one integer lookup per sample saved.
    private static let byKind: [UInt32: (bounds: Bounds, unit: HKUnit)] = {
        var result: [UInt32: (Bounds, HKUnit)] = [:]
        for bounds in table {
            // The table's units are HealthKit's own: they always parse.
            guard let unit = try? HKUnit.parse(bounds.unit) else { continue }
            result[HKQuantityType(bounds.identifier).kindCode] = (bounds, unit)
        }
        return result
    }()

    /// The bounds of `type`, if the table has it.
    package static func bounds(of type: HKQuantityType) -> (bounds: Bounds, unit: HKUnit)? {
        byKind[type.kindCode]
    }

    /// Refuses a value outside `type`'s range (VAL-1). A cumulative type's
    /// maximum is per day of the sample's interval (`duration`, in
    /// seconds; one day at least): ten years of steps may hold more than a
    /// day's. The message names the type and the range, never the value:
    /// values are health data.
    package static func check(
        _ type: HKQuantityType,
        _ quantity: HKQuantity,
        duration: Double
    ) throws(HKError) {
        if let (bounds, unit) = bounds(of: type), quantity.unit.isCompatible(with: unit) {
            let value = quantity.doubleValue(for: unit)
            let cumulative = type.aggregationStyle == .cumulative
            let days = cumulative ? max(1, duration / 86_400) : 1
            guard value >= bounds.minimum && value <= bounds.maximum * days else {
                throw .invalid(
                    "VAL-1",
                    "a \(type.identifier) sample's value must lie between \(Self.text(bounds.minimum)) and "
                        + "\(Self.text(bounds.maximum)) \(bounds.unit)\(cumulative ? " per day of its interval" : "")"
                )
            }
            return
        }
        if type.aggregationStyle == .cumulative, quantity.value < 0 {
            throw .invalid("VAL-1", "a \(type.identifier) sample sums amounts: its value cannot be negative")
        }
    }

    private static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
