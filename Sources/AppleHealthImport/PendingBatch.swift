import Anchorage
import Foundation

/// A batch of an import being saved.
struct InFlight {
    var task: Task<(objects: Int, members: Int), any Error>
    var count: Int
    /// The ids it saves, for correlations that must follow their records.
    var ids: Set<UUID>
    /// Whether it saves routes with their workouts' links: then the task's
    /// `members` counts the routes whose workout the store does not hold.
    var routes = false
}

/// The objects of an import waiting to be saved, their ids, and the
/// batches being saved.
struct PendingBatch {
    var objects: [HKObject] = []
    var ids = Set<UUID>()
    /// Whether the batch must wait for the ones in flight: it holds a
    /// correlation whose records they save.
    var chained = false
    /// Correlations whose records are in this batch: they go in the next
    /// one, which follows it (a save cannot hold one uuid twice).
    var deferred: [HKObject] = []
    var deferredIDs = Set<UUID>()
    /// Routes waiting for the batch holding their workout, with its uuid.
    var routes: [(workout: UUID, route: HKWorkoutRoute)] = []
    /// Activity summaries waiting, by day.
    var summaries: [DateComponents: HKActivitySummary] = [:]
    var inFlight: [InFlight] = []

    /// Adds an object, unless the batch (or the deferred correlations)
    /// already holds its uuid: then it is counted as already present.
    mutating func add(_ object: HKObject, summary: inout HealthExportImporter.Summary) {
        guard !ids.contains(object.uuid), !deferredIDs.contains(object.uuid) else {
            summary.alreadyPresent += 1
            return
        }
        if let correlation = object as? HKCorrelation {
            // Its records also appear at the top level, usually just before.
            if correlation.objects.contains(where: { ids.contains($0.uuid) }) {
                deferred.append(correlation)
                deferredIDs.insert(correlation.uuid)
                return
            }
            if correlation.objects.contains(where: { member in inFlight.contains { $0.ids.contains(member.uuid) } }) {
                chained = true
            }
        }
        ids.insert(object.uuid)
        objects.append(object)
    }

    /// Empties the batch after it was sent; the deferred correlations
    /// start the next one, which waits for this one.
    mutating func startNext() {
        objects = deferred
        ids = deferredIDs
        chained = !deferred.isEmpty
        deferred = []
        deferredIDs = []
    }
}
