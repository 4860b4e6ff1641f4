public import Anchorage
import Foundation

/// Saving samples sent as JSON and deleting samples by uuid: the one use
/// case behind `POST /v1/samples`, `DELETE /v1/samples/{uuid}`,
/// `anchorage save` and `anchorage delete`. The front ends read the bytes
/// or uuids, call, and write the outcome in their own form.
///
/// ```swift
/// let batch = try SampleWrites.batch(json: body)          // typed errors, nothing stored
/// let uuids = try await SampleWrites.save(batch, to: store) { count in try await quota.turn(count) }
/// ```
public enum SampleWrites {
    /// The samples of a save request: a JSON array in the form of
    /// docs/json-format.md, or `{"samples": [...]}`.
    ///
    /// - Throws: ``ServiceError`` `.invalidJSON` naming what is wrong with
    ///   the JSON, `.invalidArgument` naming a number that is JSON but does
    ///   not fit its field, `.badRequest` for a batch with nothing to save or
    ///   with something that is not a sample; `HKError` for a sample that
    ///   breaks a rule (its message names the rule). Never a health value.
    public static func batch(json data: Data) throws -> SampleBatch {
        try worded { try SampleBatch(json: data) }
    }

    /// The samples of a save request read while it arrived (see
    /// ``SampleBatch/Reader``), with the answers and errors of
    /// ``batch(json:)`` for the same bytes.
    ///
    /// ```swift
    /// var reader = SampleBatch.Reader()
    /// for try await chunk in body { chunk.withUnsafeReadableBytes { reader.append($0) } }
    /// let batch = try SampleWrites.batch(reader)
    /// ```
    public static func batch(_ reader: SampleBatch.Reader) throws -> SampleBatch {
        try worded { try reader.finish() }
    }

    /// `decode`'s batch, its errors in the service's words.
    private static func worded(_ decode: () throws -> SampleBatch) throws -> SampleBatch {
        do {
            return try decode()
        } catch let error as DecodingError {
            throw ServiceError(.invalidJSON, DecodingErrorWords.describe(error))
        } catch let error as JSONNumberOutOfRange {
            throw ServiceError(.invalidArgument, error.message)
        } catch let error as SampleBatch.Empty {
            throw ServiceError(.badRequest, error.description)
        }
    }

    /// Saves `batch`, all or none (OBJ-31), after `beforeSaving` (given
    /// the number of samples) has let it go ahead and within what `writes`
    /// guarantees (checked before and after); returns the samples' uuids in
    /// the order given.
    public static func save(
        _ batch: SampleBatch,
        to store: HKHealthStore,
        guarded writes: WriteGuard = WriteGuard(),
        beforeSaving: (Int) async throws -> Void = { _ in }
    ) async throws -> [UUID] {
        try await beforeSaving(batch.objects.count)
        try writes.beforeWrite(.save, to: store)
        try await store.save(batch.objects)
        try await writes.afterWrite(.save, to: store)
        return batch.objects.map(\.uuid)
    }

    /// What a deletion did.
    public struct Deletion: Sendable, Hashable {
        /// The distinct uuids asked for.
        public let requested: Int
        /// How many samples were deleted.
        public let deleted: Int
        /// How many of the uuids named no sample the principal may delete.
        public var missing: Int { requested - deleted }
    }

    /// Deletes the samples of `uuids` that the store's principal may
    /// delete, after `beforeDeleting` (given the number of uuids) has let
    /// it go ahead and within what `writes` guarantees (after: only when
    /// something was deleted).
    public static func delete(
        _ uuids: [UUID],
        from store: HKHealthStore,
        guarded writes: WriteGuard = WriteGuard(),
        beforeDeleting: (Int) async throws -> Void = { _ in }
    ) async throws -> Deletion {
        let distinct = Set(uuids)
        try await beforeDeleting(distinct.count)
        try writes.beforeWrite(.delete, to: store)
        let deleted = try await store.deleteObjects(withUUIDs: Array(distinct))
        if deleted > 0 { try await writes.afterWrite(.delete, to: store) }
        return Deletion(requested: distinct.count, deleted: deleted)
    }
}
