import AnchorageLog
import AnchorageModel
import Foundation

extension StoreEngine {
    /// The live series sample `id` of `type` with its points, if `caller`
    /// may read it: what a series query reads, once, before it delivers the
    /// points in batches.
    ///
    /// - Throws: ``HKError`` `errorNoData` (SERIES-4) when the store holds
    ///   no such live sample the caller may read — never saved, deleted, of
    ///   another type, or hidden from the caller — and the read scope's
    ///   authorization errors.
    func seriesSample(
        _ id: UUID,
        type: HKSampleType,
        caller: Caller
    ) throws(HKError) -> (sample: HKSample, points: SeriesPoints) {
        let found: HKSample? = try read(as: caller) { txn, session in
            let scope = try scope(for: type, in: txn, session: &session)
            guard let record = try index.record(id, in: txn), record.isLive, record.kind.rawValue == type.kindCode,
                scope.admits(source: record.source)
            else { return nil }
            return try log.withEntry(at: record.saveSeq, in: txn) { _, payload in
                guard let payload else { return nil }
                var decoder = PayloadDecoder()
                return try decoder.decode(payload) as? HKSample
            } ?? nil
        }
        guard let found, let points = found.seriesPoints else {
            throw HKError(
                .errorNoData,
                rule: "SERIES-4",
                "the store holds no \(type.identifier) sample \(id) that this app may read"
            )
        }
        return (found, points)
    }
}

extension StoreEngine {
    /// Every quantity of the quantity samples matching `target` that the
    /// caller may read, with its sample (read with its series' quantities),
    /// in the type's canonical unit: by the quantities' start dates, or
    /// grouped by sample in start-date order with `bySample`.
    func quantities(
        of target: QueryTarget,
        bySample: Bool,
        caller: Caller
    ) throws(HKError) -> [(quantity: QuantitySeries.Quantity, sample: HKQuantitySample)] {
        let samples: [HKQuantitySample] = try read(as: caller) { txn, session in
            session.decoder.readsSeriesPoints = true
            return try matchingSamplesWithSeqs(of: target.type, predicate: target.predicate, in: txn, session: &session)
                .compactMap { $0.sample as? HKQuantitySample }
        }
        var found: [(quantity: QuantitySeries.Quantity, sample: HKQuantitySample)] = []
        found.reserveCapacity(samples.count)
        let ordered =
            bySample
            ? samples.enumerated().sorted { a, b in
                a.element.startDate != b.element.startDate
                    ? a.element.startDate < b.element.startDate : a.offset < b.offset
            }.map(\.element) : samples
        for sample in ordered {
            for part in sample.canonicalQuantities { found.append((part, sample)) }
        }
        if !bySample {
            // A stable sort: equal starts keep the samples' anchor order.
            found = found.enumerated().sorted { a, b in
                a.element.quantity.start != b.element.quantity.start
                    ? a.element.quantity.start < b.element.quantity.start : a.offset < b.offset
            }.map(\.element)
        }
        return found
    }
}
