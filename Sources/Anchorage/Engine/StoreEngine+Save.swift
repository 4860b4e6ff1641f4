import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// The state a planned batch assumed; the writer checks it again inside the
/// write transaction, and a batch whose assumptions no longer hold is
/// planned again.
struct PlanConflict: Error {}

/// A planned save of an id the store already holds (OBJ-32), found by the
/// writer's check.
struct DuplicateObject: Error {
    let id: UUID
}

/// A planned batch: its events and what must still hold when it commits.
struct WritePlan: Sendable {
    var events: [LogEvent] = []
    /// Whether the batch saves objects, whose ids must be new (the index
    /// checks each as it stores it).
    var savesObjects = false
    /// Ids that must still be live.
    var liveIDs: [UUID] = []
    /// Sync identifier rows that must still point where they pointed.
    var syncRows: [(key: [UInt8], id: UUID?)] = []
    /// Objects the call reports as deleted or saved (for counts).
    var affected = 0
    /// Correlation members stored with their correlation (not counted in
    /// ``affected``).
    var membersSaved = 0

    func precondition(_ index: HealthIndex) -> AppendPrecondition {
        let plan = self
        return { txn in
            for id in plan.liveIDs where try index.record(id, in: txn)?.isLive != true {
                throw PlanConflict()
            }
            for row in plan.syncRows {
                let current = try txn.withValue(forKey: row.key, in: index.syncIDs) { UUID(indexBytes: $0) } ?? nil
                if current != row.id { throw PlanConflict() }
            }
            // The index checks that every saved id is new as it stores it.
            return plan.savesObjects ? NewObjectsOnly() : nil
        }
    }
}

/// What a save joins its samples to, besides saving them.
enum SampleLink: Sendable {
    /// Associated with a saved workout (OBJ-24).
    case workout(UUID)
    /// Related as effort scores to a saved workout, or one of its activities.
    case effort(workout: UUID, activity: UUID?)

    var workout: UUID {
        switch self {
        case .workout(let workout), .effort(let workout, _): workout
        }
    }
}

extension StoreEngine {
    /// Plans with `plan` in a read transaction and appends the result as one
    /// batch, planning again when a concurrent batch invalidated the plan.
    func commit(
        replanningDuplicates: Bool = false,
        _ plan: (borrowing ReadTransaction) throws -> WritePlan
    ) async throws(HKError) -> WritePlan {
        for _ in 0..<16 {
            let planned = try read(plan)
            guard !planned.events.isEmpty else { return planned }
            do {
                try await log.append(planned.events, precondition: planned.precondition(index))
                return planned
            } catch is PlanConflict {
                continue
            } catch is DuplicateObject where replanningDuplicates {
                continue
            } catch let duplicate as DuplicateObject {
                let deleted = (try? read { txn in try index.record(duplicate.id, in: txn)?.state == .deleted }) ?? false
                throw HKError(
                    .errorInvalidArgument,
                    rule: "OBJ-32",
                    deleted
                        ? "the object with uuid \(duplicate.id) was deleted, and a deleted uuid is never used again; "
                            + "save the object under a new uuid"
                        : "an object with uuid \(duplicate.id) already exists; objects cannot be saved twice"
                )
            } catch {
                throw HKError.wrapping(error)
            }
        }
        throw HKError(.errorDatabaseInaccessible, "the store is too busy: the save kept conflicting with others; retry")
    }

    /// Saves `objects` all-or-nothing (OBJ-31..33); with `link`, also
    /// links every sample of the call to its workout (OBJ-24) or relates it
    /// as an effort score, saving those not saved yet.
    ///
    /// With `skippingKnown`, objects whose uuid the store already knows
    /// (saved, or deleted) are left out instead of failing the call, and a
    /// concurrent save of the same uuid makes the call plan again. Returns
    /// how many objects were saved.
    @discardableResult
    func save(
        _ objects: [HKObject],
        caller: Caller,
        linkingTo link: SampleLink? = nil,
        skippingKnown: Bool = false
    ) async throws(HKError) -> Int {
        try await saveCounting(objects, caller: caller, linkingTo: link, skippingKnown: skippingKnown).objects
    }

    /// ``save(_:caller:linkingTo:skippingKnown:)``, returning also how many
    /// correlation members were stored with their correlations.
    func saveCounting(
        _ objects: [HKObject],
        caller: Caller,
        linkingTo link: SampleLink? = nil,
        skippingKnown: Bool = false
    ) async throws(HKError) -> (objects: Int, members: Int) {
        guard !objects.isEmpty else {
            throw HKError(.errorInvalidArgument, rule: "OBJ-31", "there is nothing to save")
        }
        var samples: [HKSample] = []
        for object in objects {
            guard let sample = object as? HKSample else {
                throw HKError(.errorInvalidArgument, rule: "OBJ-31", "only samples can be saved")
            }
            samples.append(caller.revision.map { sample.restamped($0) } ?? sample)
        }
        try checkSaveable(samples)
        let prepared = samples.map { (sample: $0, members: Self.members(of: $0)) }
        let encoded = prepared.map { item in
            (item.members.map { PayloadCodec.encode($0) }, PayloadCodec.encode(item.sample))
        }
        let plan = try await commit(replanningDuplicates: skippingKnown) { txn in
            try planSave(
                prepared,
                encoded: encoded,
                caller: caller,
                linkingTo: link,
                skippingKnown: skippingKnown,
                in: txn
            )
        }
        return (plan.affected, plan.membersSaved)
    }

    /// Members of a correlation in a stable order; none for other samples.
    static func members(of sample: HKSample) -> [HKSample] {
        guard let correlation = sample as? HKCorrelation else { return [] }
        return correlation.objects.sorted { $0.uuid.uuidString < $1.uuid.uuidString }
    }

    /// Checks what needs no store: unique uuids in the call (OBJ-32), the
    /// earliest permitted date (OBJ-9), values in their type's range
    /// (VAL-1), and source and device texts short
    /// enough for the payload format (OBJ-2, OBJ-3): a save the store could
    /// not read back is refused, not stored out of sight.
    private func checkSaveable(_ samples: [HKSample]) throws(HKError) {
        var seen = Set<UUID>(minimumCapacity: samples.count)
        let earliest = configuration.earliestPermittedSampleDate
        func check(_ sample: HKSample) throws(HKError) {
            guard seen.insert(sample.uuid).inserted else {
                throw HKError(
                    .errorInvalidArgument,
                    rule: "OBJ-32",
                    "the object \(sample.uuid) appears twice in one save"
                )
            }
            try SampleFields.checkTexts(sample.sourceRevision, sample.device)
            if sample.lacksSeriesPoints {
                throw HKError(
                    .errorInvalidArgument,
                    rule: "SERIES-3",
                    "a \(sample.sampleType.identifier) sample read from a store without its points cannot be saved; "
                        + "build a new one with its builder"
                )
            }
            if let quantitySample = sample as? HKQuantitySample {
                try ValueRanges.check(
                    quantitySample.quantityType,
                    quantitySample.quantity,
                    duration: quantitySample.endDate.timeIntervalSince(quantitySample.startDate)
                )
                if let series = quantitySample.series {
                    let canonical = quantitySample.quantityType.canonicalUnit
                    for part in series.quantities {
                        try ValueRanges.check(
                            quantitySample.quantityType,
                            HKQuantity(unit: canonical, doubleValue: part.value),
                            duration: part.end - part.start
                        )
                    }
                }
            }
            guard sample.endDate >= earliest else {
                throw HKError(
                    .errorInvalidArgument,
                    rule: "OBJ-9",
                    "a \(sample.sampleType.identifier) sample ends before the earliest permitted sample date"
                )
            }
        }
        for sample in samples {
            if let correlation = sample as? HKCorrelation {
                for member in correlation.objects { try check(member) }
            }
            try check(sample)
        }
    }

    private func planSave(
        _ prepared: [(sample: HKSample, members: [HKSample])],
        encoded: [([[UInt8]], [UInt8])],
        caller: Caller,
        linkingTo link: SampleLink?,
        skippingKnown: Bool,
        in txn: borrowing ReadTransaction
    ) throws -> WritePlan {
        let workout = link?.workout
        var plan = WritePlan()
        var pendingSync: [[UInt8]: (id: UUID, version: Double)] = [:]
        var linked: [UUID] = []
        if let workout {
            guard let record = try index.record(workout, in: txn), record.isLive,
                record.kind.rawValue == TypeCatalog.workout.kindCode
            else {
                throw HKError(.errorInvalidArgument, rule: "OBJ-24", "the workout \(workout) is not saved in the store")
            }
            try checkShare(TypeCatalog.workout, caller: caller, in: txn)
            plan.liveIDs.append(workout)
        }
        for ((sample, members), (memberBytes, bytes)) in zip(prepared, encoded) {
            // Skipping known samples skips their links too, so an import
            // run again appends nothing.
            if skippingKnown, try index.record(sample.uuid, in: txn) != nil { continue }
            if workout != nil, let record = try index.record(sample.uuid, in: txn) {
                guard record.isLive else {
                    throw HKError(.errorInvalidArgument, rule: "OBJ-24", "the sample \(sample.uuid) was deleted")
                }
                // The stored sample decides, so a sample made up with the
                // uuid of another type's sample links nothing.
                guard record.kind.rawValue == sample.sampleType.kindCode else {
                    throw HKError(
                        .errorInvalidArgument,
                        rule: "OBJ-24",
                        "the sample \(sample.uuid) is saved as another type than \(sample.sampleType.identifier)"
                    )
                }
                try checkShare(sample.sampleType, caller: caller, in: txn)
                linked.append(sample.uuid)
                plan.liveIDs.append(sample.uuid)
                continue
            }
            // Whether the ids are new is checked by the writer, atomically
            // with the append (OBJ-32; see `WritePlan.precondition`).
            if !caller.isOwner {
                for object in members + [sample] where !(object is HKCorrelation) {
                    try checkShare(object.sampleType, caller: caller, in: txn)
                }
            }
            var replacing: ObjectRecord?
            var replacedID: UUID?
            if let sync = sample.typedMetadata.sync {
                let key = HealthIndex.syncKey(
                    source: sample.sourceRevision.source.bundleIdentifier,
                    identifier: sync.identifier
                )
                let existing =
                    try pendingSync[key]
                    ?? txn.withValue(forKey: key, in: index.syncIDs) { value in
                        UUID(indexBytes: value).map { (id: $0, version: Double(bitPattern: value.uint64(at: 16))) }
                    } ?? nil
                if pendingSync[key] == nil { plan.syncRows.append((key, existing?.id)) }
                if let existing {
                    // OBJ-33: an equal or lower version is ignored, as a success.
                    guard sync.version > existing.version else { continue }
                    if let record = try index.record(existing.id, in: txn), record.isLive {
                        replacing = record
                        replacedID = existing.id
                    }
                }
                pendingSync[key] = (sample.uuid, sync.version)
            }
            if let replacing, let replacedID {
                plan.events.append(.delete(id: replacedID, kind: replacing.kind))
                plan.liveIDs.append(replacedID)
            }
            for (member, memberPayload) in zip(members, memberBytes) {
                // A known member is not saved again; the correlation joins it.
                if skippingKnown, try index.record(member.uuid, in: txn) != nil { continue }
                plan.membersSaved += 1
                plan.events.append(
                    .save(
                        id: member.uuid,
                        kind: EntryKind(rawValue: member.sampleType.kindCode),
                        payload: memberPayload
                    )
                )
            }
            plan.events.append(
                .save(id: sample.uuid, kind: EntryKind(rawValue: sample.sampleType.kindCode), payload: bytes)
            )
            plan.savesObjects = true
            plan.affected += 1
            linked.append(sample.uuid)
            if let replacedID {
                try inheritLinks(from: replacedID, to: sample.uuid, into: &plan, in: txn)
            }
        }
        switch link {
        case .workout(let workout)? where !linked.isEmpty:
            let record = LinkRecord(role: .workout, container: workout, members: linked)
            plan.events.append(.save(id: .random(), kind: StoreKind.link, payload: record.bytes))
        case .effort(let workout, let activity)?:
            for sample in linked {
                let record = EffortRecord(operation: .relate, workout: workout, sample: sample, activity: activity)
                plan.events.append(.save(id: .random(), kind: StoreKind.effort, payload: record.bytes))
            }
        default:
            break
        }
        return plan
    }

    /// Links a sync identifier replacement to every workout and correlation
    /// of the sample it replaces (OBJ-33).
    private func inheritLinks(
        from old: UUID,
        to new: UUID,
        into plan: inout WritePlan,
        in txn: borrowing ReadTransaction
    ) throws {
        for workout in try index.pairs(startingWith: old, in: index.sampleWorkouts, txn: txn) {
            let link = LinkRecord(role: .workout, container: workout, members: [new])
            plan.events.append(.save(id: .random(), kind: StoreKind.link, payload: link.bytes))
        }
        if let correlation = try txn.withValue(forKey: old.indexBytes, in: index.memberOf, { UUID(indexBytes: $0) })
            ?? nil
        {
            let link = LinkRecord(role: .correlation, container: correlation, members: [new])
            plan.events.append(.save(id: .random(), kind: StoreKind.link, payload: link.bytes))
        }
    }

    /// Deletes the objects `ids` (OBJ-34): unknown or deleted ids, and
    /// objects the app cannot read (AUTH-4), are skipped; an app may delete
    /// only its own objects. Returns how many objects were deleted.
    @discardableResult
    func delete(_ ids: [UUID], caller: Caller, skipOthers: Bool = false) async throws(HKError) -> Int {
        let plan = try await commit { txn in
            var plan = WritePlan()
            var seen = Set<UUID>()
            var session = ReadSession(caller: caller)
            for id in ids where seen.insert(id).inserted {
                guard let record = try index.record(id, in: txn), record.isLive,
                    try isVisible(id, record, in: txn, session: &session)
                else { continue }
                if let principal = caller.bundleIdentifier, record.source != principal {
                    if skipOthers { continue }
                    throw HKError(
                        .errorAuthorizationDenied,
                        rule: "OBJ-34",
                        "\(principal) cannot delete \(id): an app deletes only the objects it saved"
                    )
                }
                // Correlation types are never granted; their members are (CQ-4).
                if let type = TypeCatalog.sampleType(forKindCode: record.kind.rawValue), !(type is HKCorrelationType) {
                    try checkShare(type, caller: caller, in: txn)
                }
                plan.events.append(.delete(id: id, kind: record.kind))
                plan.liveIDs.append(id)
                plan.affected += 1
            }
            return plan
        }
        return plan.affected
    }
}
