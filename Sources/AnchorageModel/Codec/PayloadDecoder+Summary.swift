import Foundation

/// What a store's index reads of a sample payload: its identity, bounds,
/// source and sync identifier, a quantity sample's value in its type's
/// canonical unit and a correlation's members.
///
/// The decoder reads it without building the sample when the payload is a
/// plain quantity sample (most are), and from the decoded sample otherwise;
/// both give the same values, and a payload the decoder refuses has none.
///
/// ```swift
/// var decoder = PayloadDecoder()
/// let summary = try decoder.summary(bytes)
/// print(summary.kindCode, summary.start, summary.quantity?.value as Any)
/// ```
package struct SampleSummary {
    package let uuid: UUID
    package let kindCode: UInt32
    package let start: Date
    package let end: Date
    package let source: HKSource
    /// The sync identifier and version (OBJ-33), when present.
    package let sync: (identifier: String, version: Double)?
    /// A quantity sample's value in its type's canonical unit, and whether
    /// it was entered by hand; `nil` for other samples.
    package let quantity: (value: Double, userEntered: Bool)?
    /// The quantities of a sample built as a series (SERIES-6), in the
    /// type's canonical unit; `nil` for a sample of one quantity.
    package let seriesQuantities: [QuantitySeries.Quantity]?
    /// A correlation's members; empty for other samples.
    package let members: [UUID]

    /// The summary of a decoded sample.
    package init(_ sample: HKSample) {
        uuid = sample.uuid
        kindCode = sample.sampleType.kindCode
        start = sample.startDate
        end = sample.endDate
        source = sample.sourceRevision.source
        sync = sample.typedMetadata.sync
        if let quantitySample = sample as? HKQuantitySample {
            quantity = (
                quantitySample.quantity.doubleValue(for: quantitySample.quantityType.canonicalUnit),
                quantitySample.wasUserEntered
            )
            seriesQuantities = quantitySample.series?.quantities
        } else {
            quantity = nil
            seriesQuantities = nil
        }
        members = (sample as? HKCorrelation)?.objects.map(\.uuid) ?? []
    }

    /// The summary of a plain quantity sample: no metadata, so no sync
    /// identifier and not entered by hand.
    init(_ plain: PayloadDecoder.PlainQuantity) {
        uuid = plain.uuid
        kindCode = plain.type.kindCode
        start = plain.start
        end = plain.end
        source = plain.revision.source
        sync = nil
        quantity = (
            HKQuantity(unit: plain.unit, doubleValue: plain.value).doubleValue(for: plain.type.canonicalUnit), false
        )
        seriesQuantities = nil
        members = []
    }
}

extension PayloadDecoder {
    /// Reads what an index needs of a sample payload.
    ///
    /// - Throws: what ``decode(_:)-(UnsafeRawBufferPointer)`` throws for the
    ///   same bytes, and `PAYLOAD-2` for an object that is not a sample.
    package mutating func summary(_ buffer: UnsafeRawBufferPointer) throws(HKError) -> SampleSummary {
        if !readsSeriesPoints, buffer.count > 1, buffer[1] == PayloadCodec.Kind.quantitySeries.rawValue {
            // The statistics views keep each quantity of a series.
            var reading = self
            reading.readsSeriesPoints = true
            return try reading.summary(buffer)
        }
        var reader = PayloadReader(buffer)
        if let plain = try readPlainQuantity(&reader, SampleSummary.init) { return plain }
        guard let sample = try readWholeObject(&reader) as? HKSample else {
            throw .invalid("PAYLOAD-2", "the payload is not a sample")
        }
        return SampleSummary(sample)
    }
}
