import Anchorage
import Foundation

/// Micro-benchmarks of the health model: payload encode and decode, unit
/// conversion, predicate evaluation. Each runs on one core.
struct ModelBenchmarks {
    let samples: [HKQuantitySample]

    init(count: Int) {
        let type = HKQuantityType(.stepCount)
        let unit = HKUnit.count()
        let start = Date(timeIntervalSince1970: 1_770_000_000)
        samples = (0..<count).map { index in
            let begin = start.addingTimeInterval(Double(index) * 60)
            return HKQuantitySample(
                type: type,
                quantity: HKQuantity(unit: unit, doubleValue: Double(index % 500)),
                start: begin,
                end: begin.addingTimeInterval(60)
            )
        }
    }

    /// Quantity samples encoded per second. Each payload is dropped after
    /// use, as the log does once it has copied the bytes into its page.
    func encode() -> Double {
        var checksum = 0
        let start = ContinuousClock.now
        for sample in samples {
            checksum &+= PayloadCodec.encode(sample).count
        }
        let elapsed = ContinuousClock.now - start
        precondition(checksum > 0)
        return Double(samples.count) / elapsed.seconds
    }

    /// New quantity samples made per second (each gets a fresh uuid).
    static func create(count: Int) -> Double {
        let type = HKQuantityType(.stepCount)
        let quantity = HKQuantity(unit: .count(), doubleValue: 10)
        let origin = Date(timeIntervalSince1970: 1_770_000_000)
        var checksum = 0
        let start = ContinuousClock.now
        for index in 0..<count {
            let begin = origin.addingTimeInterval(Double(index))
            let sample = HKQuantitySample(type: type, quantity: quantity, start: begin, end: begin)
            checksum &+= Int(sample.uuid.uuid.15)
        }
        let elapsed = ContinuousClock.now - start
        precondition(checksum >= 0)
        return Double(count) / elapsed.seconds
    }

    /// Foundation `UUID()`s made per second: the baseline for ``create(count:)``.
    static func foundationUUIDs(count: Int) -> Double {
        var checksum = 0
        let start = ContinuousClock.now
        for _ in 0..<count { checksum &+= Int(UUID().uuid.15) }
        let elapsed = ContinuousClock.now - start
        precondition(checksum >= 0)
        return Double(count) / elapsed.seconds
    }

    /// The payloads of every sample, for the decode benchmark.
    func payloads() -> [[UInt8]] {
        samples.map(PayloadCodec.encode)
    }

    /// Quantity samples decoded per second.
    func decode(_ payloads: [[UInt8]]) throws -> Double {
        var decoder = PayloadDecoder()
        var checksum = 0.0
        let start = ContinuousClock.now
        for payload in payloads {
            let sample = try decoder.decode(payload) as! HKQuantitySample
            checksum += sample.startDate.timeIntervalSinceReferenceDate
        }
        let elapsed = ContinuousClock.now - start
        precondition(checksum != 0)
        return Double(payloads.count) / elapsed.seconds
    }

    /// Unit conversions per second (kilograms to pounds).
    func convert(count: Int) -> Double {
        let pounds = HKUnit.pound()
        let quantities = (0..<1_000).map { HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: Double($0)) }
        var total = 0.0
        let start = ContinuousClock.now
        for index in 0..<count {
            total += quantities[index % 1_000].doubleValue(for: pounds)
        }
        let elapsed = ContinuousClock.now - start
        precondition(total > 0)
        return Double(count) / elapsed.seconds
    }

    /// Predicate evaluations per second: a date range and a quantity comparison.
    func evaluate() throws -> Double {
        let first = samples[samples.count / 4].startDate
        let last = samples[samples.count / 2].startDate
        let predicate = try ObjectPredicate(
            NSCompoundPredicate(andPredicateWithSubpredicates: [
                HKQuery.predicateForSamples(withStart: first, end: last, options: .strictStartDate),
                HKQuery.predicateForQuantitySamples(
                    with: .greaterThan,
                    quantity: HKQuantity(unit: .count(), doubleValue: 100)
                ),
            ])
        )
        var matched = 0
        let start = ContinuousClock.now
        for sample in samples where predicate.evaluate(sample) {
            matched += 1
        }
        let elapsed = ContinuousClock.now - start
        precondition(matched > 0)
        return Double(samples.count) / elapsed.seconds
    }
}
