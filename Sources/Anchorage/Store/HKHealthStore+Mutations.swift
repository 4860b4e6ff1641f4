import AnchorageModel
import Foundation

extension HKHealthStore {
    /// Saves one object (OBJ-31..33). The store stamps it with the saving
    /// app's source (OBJ-2); saving a uuid that exists fails with
    /// `errorInvalidArgument` (OBJ-32).
    ///
    /// ```swift
    /// try await store.save(HKQuantitySample(type: steps, quantity: count, start: a, end: b))
    /// ```
    public func save(_ object: HKObject) async throws {
        try await save([object])
    }

    /// Saves objects all-or-nothing, as one batch of the log (OBJ-31, OBJ-37):
    /// a correlation is saved with its members; an object carrying a sync
    /// identifier replaces the same source's object with a lower version,
    /// and is ignored (successfully) when its version is not higher (OBJ-33).
    public func save(_ objects: [HKObject]) async throws {
        try await openEngine().save(objects, caller: caller)
    }

    /// Saves the objects whose uuids the store has never seen, neither saved
    /// nor deleted, and returns how many it saved: an Anchorage extension
    /// for importers and retried requests, so that saving the same objects
    /// again adds nothing and never brings a deleted object back. Otherwise
    /// as ``save(_:)-([HKObject])``: one batch, all or nothing.
    ///
    /// ```swift
    /// let added = try await store.saveIfAbsent(samplesFromExport)   // 0 the second time
    /// ```
    @discardableResult
    public func saveIfAbsent(_ objects: [HKObject]) async throws -> Int {
        try await openEngine().save(objects, caller: caller, skippingKnown: true)
    }

    /// ``saveIfAbsent(_:)``, also counting the correlation members it
    /// stored with their correlations (members the store did not hold yet):
    /// for an importer's summary.
    package func saveIfAbsentCounting(_ objects: [HKObject]) async throws -> (objects: Int, members: Int) {
        try await openEngine().saveCounting(objects, caller: caller, skippingKnown: true)
    }

    /// Saves one object and calls `completion` with the outcome on a
    /// background task.
    public func save(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        save([object], withCompletion: completion)
    }

    /// Saves objects all-or-nothing and calls `completion` with the outcome.
    public func save(
        _ objects: [HKObject],
        withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        complete(completion) { try await self.save(objects) }
    }

    /// Deletes one object (OBJ-34); deleting an object that does not exist
    /// succeeds and changes nothing.
    public func delete(_ object: HKObject) async throws {
        try await delete([object])
    }

    /// Deletes objects in one batch (OBJ-34, OBJ-37). An app may delete only
    /// the objects it saved (`errorAuthorizationDenied` otherwise, and nothing
    /// is deleted); an object it cannot read is skipped as if it did not
    /// exist (AUTH-4); an empty array is `errorInvalidArgument`. Deleting a
    /// correlation leaves its members (OBJ-36); deleting a workout leaves
    /// its associated samples (OBJ-25).
    public func delete(_ objects: [HKObject]) async throws {
        guard !objects.isEmpty else {
            throw HKError(.errorInvalidArgument, rule: "OBJ-34", "there is nothing to delete")
        }
        try await openEngine().delete(objects.map(\.uuid), caller: caller)
    }

    /// Deletes the objects with these uuids, for callers that kept only
    /// ids (the HTTP API's `DELETE /v1/samples/{uuid}`); returns how many
    /// existed and were deleted. The rules are ``delete(_:)``'s: an app may
    /// delete only what it saved, and nothing is deleted if one id is
    /// refused; an object the app cannot read counts as one that does not
    /// exist, so the answer never reveals it (AUTH-4). (An Anchorage addition.)
    ///
    /// ```swift
    /// let removed = try await store.deleteObjects(withUUIDs: [id])   // 0 when unknown or already deleted
    /// ```
    public func deleteObjects(withUUIDs uuids: [UUID]) async throws -> Int {
        guard !uuids.isEmpty else {
            throw HKError(.errorInvalidArgument, rule: "OBJ-34", "there is nothing to delete")
        }
        return try await openEngine().delete(uuids, caller: caller)
    }

    /// Deletes one object and calls `completion` with the outcome.
    public func delete(_ object: HKObject, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void)
    {
        delete([object], withCompletion: completion)
    }

    /// Deletes objects and calls `completion` with the outcome.
    public func delete(
        _ objects: [HKObject],
        withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        complete(completion) { try await self.delete(objects) }
    }

    /// Deletes a correlation and every member still visible, in one batch:
    /// an Anchorage extension, since deleting a correlation alone keeps its
    /// members (OBJ-36).
    public func deleteCorrelationAndMembers(_ correlation: HKCorrelation) async throws {
        let engine = try await openEngine()
        let members = try engine.read { txn in
            try engine.index.pairs(startingWith: correlation.uuid, in: engine.index.members, txn: txn)
        }
        try await engine.delete([correlation.uuid] + members, caller: caller)
    }

    /// Deletes the caller's objects of `objectType` matching `predicate` and
    /// returns how many were deleted; other apps' matches are skipped (OBJ-35).
    ///
    /// ```swift
    /// let removed = try await store.deleteObjects(of: steps, predicate: HKQuery.predicateForSamples(withStart: a, end: b))
    /// ```
    public func deleteObjects(of objectType: HKObjectType, predicate: NSPredicate) async throws -> Int {
        let engine = try await openEngine()
        guard let sampleType = objectType as? HKSampleType else {
            throw HKError(.errorInvalidArgument, rule: "OBJ-35", "\(objectType.identifier) has no samples to delete")
        }
        let typed = try ObjectPredicate(predicate)
        try typed.validate(for: sampleType)
        let owner = Caller(revision: nil)
        let matches = try engine.read(as: owner) { txn, session in
            try engine.matchingSamples(of: sampleType, predicate: typed, in: txn, session: &session)
        }
        let own = matches.filter {
            caller.bundleIdentifier == nil || $0.sourceRevision.source.bundleIdentifier == caller.bundleIdentifier
        }
        guard !own.isEmpty else { return 0 }
        return try await engine.delete(own.map(\.uuid), caller: caller, skipOthers: true)
    }

    /// Deletes matching objects and calls `completion` with the outcome and count.
    public func deleteObjects(
        of objectType: HKObjectType,
        predicate: NSPredicate,
        withCompletion completion: @escaping @Sendable (Bool, Int, (any Error)?) -> Void
    ) {
        let box = UncheckedBox((objectType, predicate))
        Task {
            do {
                let count = try await deleteObjects(of: box.value.0, predicate: box.value.1)
                completion(true, count, nil)
            } catch {
                completion(false, 0, error)
            }
        }
    }

    /// Associates samples with a saved workout (OBJ-24); samples not saved
    /// yet are saved by the same batch.
    ///
    /// ```swift
    /// try await store.addSamples([route, heartRate], to: run)
    /// let linked = HKQuery.predicateForObjects(from: run)
    /// ```
    public func addSamples(_ samples: [HKSample], to workout: HKWorkout) async throws {
        guard !samples.isEmpty else {
            throw HKError(.errorInvalidArgument, rule: "OBJ-24", "there are no samples to add to the workout")
        }
        try await openEngine().save(samples, caller: caller, linkingTo: .workout(workout.uuid))
    }

    /// Saves the samples the store does not hold yet, each associated with
    /// the saved `workout`; samples it holds (saved or deleted) are left as
    /// they are, links included, so saving again appends nothing. Returns
    /// how many were saved. For importers.
    package func saveIfAbsent(_ samples: [HKSample], linkingTo workout: UUID) async throws -> Int {
        guard !samples.isEmpty else { return 0 }
        return try await openEngine().save(samples, caller: caller, linkingTo: .workout(workout), skippingKnown: true)
    }

    /// Associates samples with a saved workout and calls `completion`.
    public func add(
        _ samples: [HKSample],
        to workout: HKWorkout,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        complete(completion) { try await self.addSamples(samples, to: workout) }
    }
}

extension HKHealthStore {
    /// Runs `operation` on a background task and reports its outcome to a
    /// HealthKit-style completion handler.
    func complete(
        _ completion: @escaping @Sendable (Bool, (any Error)?) -> Void,
        _ operation: @escaping @Sendable () async throws -> Void
    ) {
        Task {
            do {
                try await operation()
                completion(true, nil)
            } catch {
                completion(false, error)
            }
        }
    }
}

/// Carries a value the compiler cannot prove `Sendable` (an `NSPredicate`,
/// arrays of objects that are immutable) into a task.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
