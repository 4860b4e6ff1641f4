package import AnchorageModel
import Foundation

/// The seeds a random test runs with, as its arguments: `fixed`, or the
/// one seed in the environment variable `ANCHORAGE_TEST_SEED` when it is
/// set. Swift Testing names each case by its arguments, so a failing case
/// prints its seed, and running it again replays it; the variable tries a
/// new one.
///
/// ```swift
/// @Test("…", arguments: testSeeds([11, 29, 47]))
/// func history(seed: UInt64) async throws { var random = SeededGenerator(seed: seed) … }
/// ```
///
/// `ANCHORAGE_TEST_SEED=12345 swift test --filter ReplicationPropertyTests`
public func testSeeds(_ fixed: [UInt64]) -> [UInt64] {
    guard let text = ProcessInfo.processInfo.environment["ANCHORAGE_TEST_SEED"] else { return fixed }
    guard let seed = UInt64(text) else {
        fatalError("ANCHORAGE_TEST_SEED is not a seed (a number from 0 to \(UInt64.max)): \(text.prefix(40))")
    }
    return [seed]
}

extension HKQuantitySample {
    /// This sample with another uuid: HealthKit's initializers draw theirs
    /// from the system, which a seeded history cannot replay.
    ///
    /// ```swift
    /// let sample = HKQuantitySample(type: steps, quantity: q, start: s, end: e).with(uuid: .random(using: &random))
    /// ```
    package func with(uuid: UUID) -> HKQuantitySample {
        var fields = self.fields.copy()
        fields.uuid = uuid
        return try! HKQuantitySample.make(type: quantityType, quantity: quantity, fields)
    }
}
