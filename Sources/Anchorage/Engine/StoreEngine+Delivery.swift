import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

extension StoreEngine {
    /// `caller`'s registrations for `types`, by type identifier.
    func deliveryRegistrations(
        of caller: Caller,
        for types: [HKSampleType]
    ) throws(HKError) -> [String: DeliveryRegistration] {
        do {
            var found: [String: DeliveryRegistration] = [:]
            for type in types {
                let name = DeliveryRegistration.name(principal: caller.bundleIdentifier, type: type)
                if let bytes = try log.cursor(name), let registration = DeliveryRegistration(bytes: bytes) {
                    found[type.identifier] = registration
                }
            }
            return found
        } catch {
            throw HKError.wrapping(error)
        }
    }

    /// Records that `caller` has seen every change through `position` of
    /// the types it registered among `types`.
    func acknowledgeDeliveries(of caller: Caller, for types: [HKSampleType], through position: UInt64) async throws {
        var changes: [(name: String, value: [UInt8]?)] = []
        for (identifier, var registration) in try deliveryRegistrations(of: caller, for: types) {
            guard registration.acknowledged(in: log) < position || registration.incarnation != log.incarnation else {
                continue
            }
            registration.acknowledged = position
            registration.incarnation = log.incarnation
            guard let type = HKObjectType.type(forIdentifier: identifier) else { continue }
            changes.append(
                (DeliveryRegistration.name(principal: caller.bundleIdentifier, type: type), registration.bytes)
            )
        }
        try await log.setCursors(changes)
    }
}
