import Foundation

/// One quantity of a quantity series in JSON (SERIES-6): its interval and
/// its quantity, in any unit compatible with the sample's type.
///
/// ```json
/// {"startDate": "2026-09-16T18:15:00Z", "endDate": "2026-09-16T18:16:00Z", "quantity": {"unit": "count/min", "value": 72}}
/// ```
package struct QuantityJSON: Codable, Sendable {
    package var startDate: Date
    package var endDate: Date
    package var quantity: HKQuantity

    enum CodingKeys: String, CodingKey { case startDate, endDate, quantity }

    package init(startDate: Date, endDate: Date, quantity: HKQuantity) {
        self.startDate = startDate
        self.endDate = endDate
        self.quantity = quantity
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ISO8601.format(startDate), forKey: .startDate)
        try container.encode(ISO8601.format(endDate), forKey: .endDate)
        try container.encode(quantity, forKey: .quantity)
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        startDate = try JSONDates.decode(container, .startDate)
        endDate = try JSONDates.decode(container, .endDate)
        quantity = try container.decode(HKQuantity.self, forKey: .quantity)
    }
}

extension HealthObject {
    /// Writes a quantity series' count and, when the object carries them,
    /// its quantities in the type's canonical unit.
    package static func encodeQuantitySeries(
        _ sample: HKQuantitySample,
        into container: inout KeyedEncodingContainer<CodingKeys>
    ) throws {
        guard let series = sample.series else { return }
        try container.encode(series.count, forKey: .count)
        guard series.points != nil else { return }
        let unit = sample.quantityType.canonicalUnit
        let quantities = series.quantities.map { part in
            QuantityJSON(
                startDate: Date(timeIntervalSinceReferenceDate: part.start),
                endDate: Date(timeIntervalSinceReferenceDate: part.end),
                quantity: HKQuantity(unit: unit, doubleValue: part.value)
            )
        }
        try container.encode(quantities, forKey: .quantities)
    }

    /// Reads a quantity sample given as its quantities: its `quantity` is
    /// computed from them (the sum or the average), and one given beside
    /// them must agree.
    package static func decodeQuantitySeries(
        _ container: KeyedDecodingContainer<CodingKeys>,
        type: HKQuantityType,
        _ fields: consuming SampleFields
    ) throws -> HKQuantitySample {
        let listed = try container.decode(BoundedArray<QuantityJSON>.self, forKey: .quantities).elements
        guard listed.count <= QuantitySeries.maximumQuantities else {
            throw HKError.invalid(
                "SERIES-6",
                "a quantity series may hold at most \(QuantitySeries.maximumQuantities) quantities"
            )
        }
        let canonical = type.canonicalUnit
        var quantities: [QuantitySeries.Quantity] = []
        quantities.reserveCapacity(listed.count)
        for item in listed {
            try HKQuantitySample.checkQuantity(type: type, quantity: item.quantity)
            quantities.append(
                QuantitySeries.Quantity(
                    start: item.startDate.timeIntervalSinceReferenceDate,
                    end: item.endDate.timeIntervalSinceReferenceDate,
                    value: item.quantity.doubleValue(for: canonical)
                )
            )
        }
        guard !quantities.isEmpty else {
            throw HKError.invalid("SERIES-6", "a quantity series needs at least one quantity")
        }
        let sample = try HKQuantitySample.makeSeries(
            type: type,
            points: QuantitySeries(quantities: quantities).points!,
            fields
        )
        if let given = try container.decodeIfPresent(HKQuantity.self, forKey: .quantity) {
            try HKQuantitySample.checkQuantity(type: type, quantity: given)
            let stated = given.doubleValue(for: canonical)
            let computed = sample.quantity.doubleValue(for: canonical)
            guard abs(stated - computed) <= 1e-9 * max(1, abs(computed)) else {
                throw HKError.invalid(
                    "SERIES-6",
                    "the sample's quantity must be the \(type.aggregationStyle == .cumulative ? "sum" : "average") of its quantities"
                )
            }
        }
        return sample
    }
}
