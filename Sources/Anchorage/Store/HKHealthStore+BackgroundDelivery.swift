import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// Background delivery on a node. On a phone, HealthKit wakes a suspended
/// app to run its observer queries. A node has no suspended apps; what it
/// keeps is the promise behind it: an app that registered a type is told of
/// every change of it, even of those made while it was not running, and
/// is told again until it says it has handled them.
///
/// - `enableBackgroundDelivery(for:frequency:)` records, durably and on this
///   node only, the app's registration and the log position it has
///   handled (the head at registration).
/// - An ``HKObserverQuery`` of a registered type then calls its handler on
///   start when changes it has not acknowledged are waiting, and after each
///   change, at most once per `frequency` (hourly, daily, weekly coalesce).
///   The handler's completion handler acknowledges through that position;
///   an update not acknowledged within
///   ``HKHealthStore/Configuration/backgroundDeliveryRetryWait`` is
///   delivered again, up to three times with doubling waits, as HealthKit
///   does.
/// - Over HTTP the same promise is a webhook (`POST /v1/webhooks`,
///   docs/http-api.md): the node posts each change to a URL, from its own
///   durable anchor, until the receiver answers 2xx.
extension HKHealthStore {
    /// Registers this app for background delivery of `type`'s changes.
    ///
    /// ```swift
    /// try await store.enableBackgroundDelivery(for: HKQuantityType(.stepCount), frequency: .immediate)
    /// store.execute(HKObserverQuery(sampleType: steps, predicate: nil) { _, done, _ in refresh(); done() })
    /// ```
    ///
    /// Enabling a registered type again changes its frequency and keeps
    /// what was acknowledged.
    ///
    /// - Throws: `errorInvalidArgument` for a type that is not a sample
    ///   type; `errorAuthorizationNotDetermined` when the app has not asked
    ///   to read it.
    public func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency) async throws {
        guard let sampleType = type as? HKSampleType else {
            throw HKError(
                .errorInvalidArgument,
                "background delivery is for sample types; \(type.identifier) is not one"
            )
        }
        let engine = try await openEngine()
        let head = try engine.read { txn -> UInt64 in
            if let principal = caller.bundleIdentifier {
                let kind = EntryKind(rawValue: sampleType.kindCode)
                if try engine.grant(principal, kind: kind, access: .read, in: txn) == nil {
                    throw HKError(
                        .errorAuthorizationNotDetermined,
                        "\(principal) has not requested authorization to read \(type.identifier)"
                    )
                }
            }
            return try engine.head(in: txn)
        }
        let current = try engine.deliveryRegistrations(of: caller, for: [sampleType])[type.identifier]
        var registration =
            current
            ?? DeliveryRegistration(frequency: frequency, acknowledged: head, incarnation: engine.log.incarnation)
        registration.frequency = frequency
        do {
            try await engine.log.setCursors([
                (DeliveryRegistration.name(principal: caller.bundleIdentifier, type: type), registration.bytes)
            ])
        } catch {
            throw HKError.wrapping(error)
        }
    }

    /// Calls `completion` with the outcome of ``enableBackgroundDelivery(for:frequency:)``.
    public func enableBackgroundDelivery(
        for type: HKObjectType,
        frequency: HKUpdateFrequency,
        withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        complete(completion) { try await self.enableBackgroundDelivery(for: type, frequency: frequency) }
    }

    /// Ends this app's background delivery of `type`; nothing happens if
    /// there was none.
    public func disableBackgroundDelivery(for type: HKObjectType) async throws {
        do {
            try await openEngine().log.setCursors([
                (DeliveryRegistration.name(principal: caller.bundleIdentifier, type: type), nil)
            ])
        } catch {
            throw HKError.wrapping(error)
        }
    }

    /// Calls `completion` with the outcome of ``disableBackgroundDelivery(for:)``.
    public func disableBackgroundDelivery(
        for type: HKObjectType,
        withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        complete(completion) { try await self.disableBackgroundDelivery(for: type) }
    }

    /// Ends every background delivery of this app.
    public func disableAllBackgroundDelivery() async throws {
        let engine = try await openEngine()
        do {
            let names = try engine.log.cursors(
                withPrefix: DeliveryRegistration.namePrefix(principal: caller.bundleIdentifier)
            )
            .map(\.name)
            try await engine.log.setCursors(names.map { ($0, nil) })
        } catch {
            throw HKError.wrapping(error)
        }
    }

    /// Calls `completion` with the outcome of ``disableAllBackgroundDelivery()``.
    public func disableAllBackgroundDelivery(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        complete(completion) { try await self.disableAllBackgroundDelivery() }
    }

    /// The types this app has registered, with their frequencies: an
    /// Anchorage extension, for tools that show what a node will deliver.
    public func backgroundDeliveries() throws -> [HKSampleType: HKUpdateFrequency] {
        let engine = try openEngine()
        do {
            var found: [HKSampleType: HKUpdateFrequency] = [:]
            let prefix = DeliveryRegistration.namePrefix(principal: caller.bundleIdentifier)
            for (name, value) in try engine.log.cursors(withPrefix: prefix) {
                guard
                    let type = HKObjectType.type(forIdentifier: String(name.dropFirst(prefix.count))) as? HKSampleType,
                    let registration = DeliveryRegistration(bytes: value)
                else { continue }
                found[type] = registration.frequency
            }
            return found
        } catch {
            throw HKError.wrapping(error)
        }
    }
}
