import AnchorageLog
public import AnchorageModel
public import Foundation
import LMDB

extension HKHealthStore {
    /// The units the person prefers for each type: what the owner set with
    /// ``setPreferredUnits(_:)``, else the type's own unit (its
    /// ``HKQuantityType/canonicalUnit``). The setting is recorded in the log,
    /// so every peer shows the same units.
    ///
    /// ```swift
    /// let units = try await store.preferredUnits(for: [HKQuantityType(.bodyMass)])
    /// let kg = sample.quantity.doubleValue(for: units[HKQuantityType(.bodyMass)]!)
    /// ```
    ///
    /// - Throws: `errorAuthorizationNotDetermined` when the app has asked
    ///   to neither read nor share one of the types.
    public func preferredUnits(for quantityTypes: Set<HKQuantityType>) async throws -> [HKQuantityType: HKUnit] {
        let engine = try await openEngine()
        let stored = try engine.read { txn -> [String: String] in
            if let principal = caller.bundleIdentifier {
                for type in quantityTypes {
                    let kind = EntryKind(rawValue: type.kindCode)
                    let read = try engine.grant(principal, kind: kind, access: .read, in: txn)
                    let share = try engine.grant(principal, kind: kind, access: .share, in: txn)
                    if read == nil && share == nil {
                        throw HKError(
                            .errorAuthorizationNotDetermined,
                            "\(principal) has not requested authorization for \(type.identifier)"
                        )
                    }
                }
            }
            return try Self.storedPreferredUnits(engine, in: txn)
        }
        var units: [HKQuantityType: HKUnit] = [:]
        for type in quantityTypes {
            units[type] = stored[type.identifier].flatMap { try? HKUnit.parse($0) } ?? type.canonicalUnit
        }
        return units
    }

    /// Calls `completion` with ``preferredUnits(for:)``.
    public func preferredUnits(
        for quantityTypes: Set<HKQuantityType>,
        completion: @escaping @Sendable ([HKQuantityType: HKUnit], (any Error)?) -> Void
    ) {
        Task {
            do {
                completion(try await self.preferredUnits(for: quantityTypes), nil)
            } catch {
                completion([:], error)
            }
        }
    }

    /// Sets the person's preferred units for some types, keeping the others
    /// (an owner-only Anchorage extension: on a phone the Health app sets
    /// them). Posts ``HKUserPreferencesDidChangeMessage``.
    ///
    /// ```swift
    /// try await owner.setPreferredUnits([HKQuantityType(.bodyMass): .pound()])
    /// ```
    ///
    /// - Throws: `errorAuthorizationDenied` for an app; `errorInvalidArgument`
    ///   for a unit its type cannot use (UNIT-17).
    public func setPreferredUnits(_ units: [HKQuantityType: HKUnit]) async throws {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, "only the store's owner sets preferred units")
        }
        for (type, unit) in units where !type.is(compatibleWith: unit) {
            throw HKError.invalid("UNIT-17", "\(unit.unitString) is not a unit of \(type.identifier)")
        }
        let engine = try await openEngine()
        var merged = try engine.read { txn in try Self.storedPreferredUnits(engine, in: txn) }
        for (type, unit) in units { merged[type.identifier] = unit.unitString }
        try await saveSetting(merged, kind: StoreKind.preferredUnits)
        NotificationCenter.default.post(name: HKUserPreferencesDidChangeMessage.name, object: self)
    }

    /// The latest preferred-units setting: type identifier → unit string.
    static func storedPreferredUnits(
        _ engine: StoreEngine,
        in txn: borrowing ReadTransaction
    ) throws -> [String: String] {
        try engine.setting(HealthIndex.preferredUnitsSetting, as: [String: String].self, in: txn) ?? [:]
    }

    /// Told on the main actor when the person's preferred units change.
    ///
    /// ```swift
    /// let token = NotificationCenter.default.addObserver(of: store, for: HKHealthStore.HKUserPreferencesDidChangeMessage.self) { _ in reload() }
    /// ```
    public struct HKUserPreferencesDidChangeMessage: NotificationCenter.MainActorMessage {
        public typealias Subject = HKHealthStore

        /// The notification's name.
        public static var name: Notification.Name { Notification.Name("HKUserPreferencesDidChangeNotification") }

        /// The message a notification of that name carries.
        @MainActor
        public static func makeMessage(_ notification: Notification) -> HKUserPreferencesDidChangeMessage? {
            notification.name == name ? HKUserPreferencesDidChangeMessage() : nil
        }

        /// The notification posting this message.
        @MainActor
        public static func makeNotification(
            _ message: HKUserPreferencesDidChangeMessage,
            object: HKHealthStore?
        )
            -> Notification
        {
            Notification(name: name, object: object)
        }
    }
}

extension Notification.Name {
    /// Posted by a store when the person's preferred units change
    /// (``HKHealthStore/setPreferredUnits(_:)``); the object is the store.
    /// HealthKit's name for ``HKHealthStore/HKUserPreferencesDidChangeMessage``'s
    /// notification.
    ///
    /// ```swift
    /// NotificationCenter.default.addObserver(forName: .HKUserPreferencesDidChange, object: store, queue: nil) { _ in reload() }
    /// ```
    public static let HKUserPreferencesDidChange = HKHealthStore.HKUserPreferencesDidChangeMessage.name
}
