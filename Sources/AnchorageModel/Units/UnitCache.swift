import Synchronization

/// Parsed units by string, so decoding many samples that share a unit
/// parses it once. Bounded: past its capacity it stops remembering.
package final class UnitCache: Sendable {
    package static let shared = UnitCache()

    private let units = Mutex<[String: HKUnit]>([:])
    private let capacity = 4_096

    package func unit(for string: String) -> HKUnit? {
        units.withLock { $0[string] }
    }

    package func store(_ unit: HKUnit, for string: String) {
        units.withLock { units in
            if units.count < capacity { units[string] = unit }
        }
    }
}
