public import AnchorageModel
public import Foundation

extension HKHealthStore {
    /// Asks to read objects of a type that needs each object's own
    /// permission: vision prescriptions. HealthKit shows the person each
    /// matching prescription to choose from; here the store's
    /// authorization policy decides for the type as a whole, as
    /// ``requestAuthorization(toShare:read:)`` does for other types.
    ///
    /// ```swift
    /// try await store.requestPerObjectReadAuthorization(for: HKObjectType.visionPrescriptionType(), predicate: nil)
    /// ```
    ///
    /// - Throws: ``HKError`` `errorInvalidArgument` for a type that does not
    ///   need per-object permission; the authorization request's errors.
    public func requestPerObjectReadAuthorization(for objectType: HKObjectType, predicate: NSPredicate?) async throws {
        guard objectType.requiresPerObjectAuthorization() else {
            throw HKError(
                .errorInvalidArgument,
                "\(objectType.identifier) does not ask for each object's permission; use requestAuthorization(toShare:read:)"
            )
        }
        try await requestAuthorization(toShare: [], read: [objectType])
    }

    /// ``requestPerObjectReadAuthorization(for:predicate:)`` with a
    /// completion handler.
    public func requestPerObjectReadAuthorization(
        for objectType: HKObjectType,
        predicate: NSPredicate?,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let box = UncheckedBox(predicate)
        complete(completion) { try await self.requestPerObjectReadAuthorization(for: objectType, predicate: box.value) }
    }
}
