public import Anchorage
import Foundation

/// Imports the export the iPhone Health app produces into a store: the
/// `export.zip`, its `apple_health_export` folder, or the XML file.
///
/// ```swift
/// let store = HKHealthStore(directory: URL(fileURLWithPath: "/var/lib/anchorage/me"))
/// let summary = try await HealthExportImporter(store: store).importExport(at: exportURL) { progress in
///     print(progress.bytesRead, "of", progress.totalBytes ?? 0)
/// }
/// print(summary.saved, "new objects;", summary.alreadyPresent, "already there")
/// ```
///
/// The file is read as a stream and saved in batches, so memory stays
/// bounded whatever its size. Records, correlations with their records,
/// workouts with their events and `WorkoutStatistics` (which
/// `HKWorkout.statistics(for:)` answers from), metadata entries and the
/// `Me` characteristics are imported, and so are activity summaries. Every
/// object's uuid is derived from its content, and saving uses
/// ``HKHealthStore/saveIfAbsent(_:)``: importing the same file again adds
/// nothing, and an object deleted since stays deleted. Several batches are
/// saved at once while the next are read. Elements the store does not
/// model (clinical records, routes…) and records it cannot accept are counted in the
/// summary, never fatal; the summary names rules, never health values.
public struct HealthExportImporter: Sendable {
    /// The store the export goes into.
    public let store: HKHealthStore
    /// Objects per saved batch.
    public var batchSize: Int

    /// An importer into `store`.
    public init(store: HKHealthStore, batchSize: Int = 1_000) {
        self.store = store
        self.batchSize = max(1, batchSize)
    }

    /// How far an import has come.
    public struct Progress: Sendable {
        /// Bytes of the file read so far.
        public var bytesRead: Int
        /// The file's size, when known.
        public var totalBytes: Int?
        /// Top-level elements handled so far.
        public var elements: Int
    }

    /// What an import did.
    public struct Summary: Sendable, Equatable {
        /// Objects saved by this import: each record, correlation and workout
        /// stored, a correlation's member that the file does not repeat at
        /// the top level included.
        public var saved = 0
        /// Objects the store already held (from an earlier import) or that the
        /// file repeats.
        public var alreadyPresent = 0
        /// Records, correlations and workouts read, by element name.
        public var read: [String: Int] = [:]
        /// Elements not imported because the store does not model them, by
        /// element name (and record type).
        public var unknown: [String: Int] = [:]
        /// Elements not imported because they break a rule, by reason.
        public var rejected: [String: Int] = [:]
        /// Whether the `Me` characteristics were stored.
        public var characteristicsImported = false
        /// The `HealthKit Export Version` the file's prologue names, if any.
        public var exportVersion: Int?
        /// Control characters XML forbids (older exports hold vertical tabs
        /// in values), dropped from the file's values.
        public var droppedControlCharacters = 0
        /// Workout events and activities that ended past their workout (or
        /// activity) by no more than its whole-second dates explain, and
        /// were clamped to its end instead of refusing the workout.
        public var clamped = 0
        /// Top-level elements (records, workouts, correlations…) identical
        /// to an earlier one in the file (an app that saved one sample
        /// twice), kept as distinct objects as HealthKit held them.
        public var identicalRecords = 0
        /// Places where the file is not well-formed XML (the oldest exports
        /// wrote metadata keys with spaces as attribute names), read past in
        /// libxml2's recovering mode: the element there may be lost or
        /// rejected, the rest of the file is read.
        public var notWellFormed = 0
        /// The line of the first such place.
        public var firstNotWellFormedLine: Int?
        /// Attribute names with spaces (iOS 8 and 9 wrote third-party
        /// metadata keys so), mended with `_` so that the file reads on.
        public var mendedAttributeNames = 0
        /// The line of the first.
        public var firstMendedAttributeNameLine: Int?
        /// Files the export refers to (a workout's route file) that it does
        /// not hold: the zip was made without them, or they were removed.
        public var missingFiles = 0
        /// The first such file's path in the export.
        public var firstMissingFile: String?
        /// Per-beat readings of heart-rate-variability records left out of
        /// their heartbeat series: a time that is not a time of day, or not
        /// later than the beat before.
        public var skippedHeartbeats = 0
        /// Per-beat lists whose times were written in another offset than
        /// their record's, moved by whole quarter hours into the record.
        public var shiftedHeartbeatLists = 0
    }

    /// Imports the export at `url`.
    ///
    /// - Throws: ``ImportError`` when there is no export at `url`, or it is
    ///   damaged or hostile (what was saved before stays, and importing
    ///   again finishes the import), or the store's ``HKError`` when saving
    ///   fails.
    public func importExport(
        at url: URL,
        progress: (@Sendable (Progress) -> Void)? = nil
    ) async throws -> Summary {
        let source = try ExportSource.locate(url)
        let reader = ExportReader(source: source, batchSize: batchSize)
        let files = SideFiles(source)
        var builder = ExportObjects()
        var summary = Summary()
        var pending = PendingBatch()
        var elements = 0
        do {
            for try await batch in reader.batches() {
                for element in batch.topLevel {
                    elements += 1
                    try await handle(element, builder: &builder, files: files, pending: &pending, summary: &summary)
                }
                if pending.objects.count >= batchSize { try await send(&pending, into: &summary) }
                if pending.summaries.count >= batchSize { try await saveSummaries(&pending, into: &summary) }
                reader.consumed()
                let read = reader.progress
                progress?(Progress(bytesRead: read.bytesRead, totalBytes: source.totalBytes, elements: elements))
                // Building objects is computation whose awaits rarely
                // suspend: a batch at a time, the thread is given back to
                // the other tasks of the process.
                await Task.yield()
            }
            try importElectrocardiograms(files, pending: &pending, summary: &summary)
            try await save(&pending, into: &summary)
            try await saveSummaries(&pending, into: &summary)
        } catch {
            // What was saved before the error stays; the batch in flight
            // finishes before the error is reported.
            try? await settle(&pending, into: &summary)
            throw error
        }
        let read = reader.progress
        summary.exportVersion = read.exportVersion
        summary.droppedControlCharacters = read.droppedControlCharacters
        summary.identicalRecords = builder.numberedOccurrences
        summary.notWellFormed = read.recovered
        summary.firstNotWellFormedLine = read.firstRecoveredLine
        summary.mendedAttributeNames = read.mendedNames
        summary.firstMendedAttributeNameLine = read.firstMendedLine
        return summary
    }

    /// Starts saving the pending batch while the next ones are built. Up to
    /// ``maximumInFlight`` batches are in flight, so the store's writer
    /// commits several in one transaction (one sync to disk) while the
    /// importer goes on. A batch holding a correlation whose records are in
    /// an earlier batch waits for the earlier ones before it saves, so the
    /// records are saved first and the correlation joins them, as it would
    /// one batch at a time: the summary's counts never depend on timing.
    private func send(_ pending: inout PendingBatch, into summary: inout Summary) async throws {
        while pending.inFlight.count >= Self.maximumInFlight { try await settleOldest(&pending, into: &summary) }
        let objects = pending.objects
        let store = self.store
        let earlier = pending.chained ? pending.inFlight.map(\.task) : []
        let task = Task {
            for batch in earlier { _ = try? await batch.value }
            return try await store.saveIfAbsentCounting(objects)
        }
        pending.inFlight.append(InFlight(task: task, count: objects.count, ids: pending.ids))
        pending.startNext()
        sendRoutes(&pending)
    }

    /// Starts saving the routes waiting, after every batch in flight (their
    /// workouts are in those batches), each associated with its workout.
    private func sendRoutes(_ pending: inout PendingBatch) {
        guard !pending.routes.isEmpty else { return }
        let routes = pending.routes
        pending.routes = []
        let earlier = pending.inFlight.map(\.task)
        let store = self.store
        let task = Task {
            for batch in earlier { _ = try? await batch.value }
            return try await Self.saveRoutes(routes, into: store)
        }
        pending.inFlight.append(InFlight(task: task, count: routes.count, ids: [], routes: true))
    }

    /// Saves routes grouped by workout; returns how many were saved and how
    /// many were left out because their workout is not in the store (it
    /// was rejected, or deleted since an earlier import).
    static func saveRoutes(
        _ routes: [(workout: UUID, route: HKWorkoutRoute)],
        into store: HKHealthStore
    ) async throws -> (objects: Int, members: Int) {
        var order: [UUID] = []
        var groups: [UUID: [HKSample]] = [:]
        for (workout, route) in routes {
            if groups[workout] == nil { order.append(workout) }
            groups[workout, default: []].append(route)
        }
        var saved = 0
        var orphaned = 0
        for workout in order {
            let group = groups[workout]!
            do {
                saved += try await store.saveIfAbsent(group, linkingTo: workout)
            } catch let error as HKError where error.rule == "OBJ-24" {
                orphaned += group.count
            }
        }
        return (saved, orphaned)
    }

    /// Batches saved at once: enough for group commit to join them while
    /// one syncs, few enough that memory stays a few batches.
    static let maximumInFlight = 3

    /// Waits for every batch in flight and counts what they saved; the
    /// first error is thrown after all have finished.
    private func settle(_ pending: inout PendingBatch, into summary: inout Summary) async throws {
        var failure: (any Error)?
        while !pending.inFlight.isEmpty {
            do {
                try await settleOldest(&pending, into: &summary)
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
    }

    private func settleOldest(_ pending: inout PendingBatch, into summary: inout Summary) async throws {
        let batch = pending.inFlight.removeFirst()
        let saved = try await batch.task.value
        if batch.routes {
            summary.saved += saved.objects
            if saved.members > 0 { summary.rejected[Self.orphanedRoute, default: 0] += saved.members }
            summary.alreadyPresent += batch.count - saved.objects - saved.members
            return
        }
        summary.saved += saved.objects + saved.members
        summary.alreadyPresent += batch.count - saved.objects
    }

    /// Why a route was not saved when its workout is not in the store.
    static let orphanedRoute = "a route whose workout is not in the store (OBJ-24)"

    private func handle(
        _ element: ExportElement,
        builder: inout ExportObjects,
        files: SideFiles,
        pending: inout PendingBatch,
        summary: inout Summary
    ) async throws {
        let object: HKSample
        do {
            switch element.name {
            case .record:
                object = try builder.sample(element, topLevel: true)
                if element.children.contains(where: { $0.name == .heartRateVariabilityMetadataList }),
                    let series = builder.heartbeats(
                        of: element,
                        record: object,
                        skipped: &summary.skippedHeartbeats,
                        shifted: &summary.shiftedHeartbeatLists
                    )
                {
                    summary.read["HeartRateVariabilityMetadataList", default: 0] += 1
                    pending.add(series, summary: &summary)
                }
            case .correlation:
                let correlation = try builder.correlation(element)
                summary.read[element.nameText, default: 0] += 1
                pending.add(correlation, summary: &summary)
                return
            case .workout:
                builder.clamped = 0
                object = try builder.workout(element)
                for (name, count) in builder.leftOut { summary.countUnknown(name, count) }
                builder.leftOut = [:]
                summary.clamped += builder.clamped
                for child in element.children where child.name == .workoutRoute {
                    switch try builder.route(child, read: files.read) {
                    case .route(let route):
                        summary.read["WorkoutRoute", default: 0] += 1
                        pending.routes.append((object.uuid, route))
                    case .missingFile(let path):
                        summary.missingFiles += 1
                        summary.firstMissingFile = summary.firstMissingFile ?? String(path.prefix(300))
                    case .rejected(let reason):
                        summary.rejected[reason, default: 0] += 1
                    }
                }
            case .me:
                try await importCharacteristics(element)
                summary.characteristicsImported = true
                return
            case .exportDate:
                return
            case .audiogram:
                object = try builder.audiogram(element)
            case .visionPrescription:
                object = try builder.visionPrescription(element)
            case .clinicalRecord:
                switch try builder.clinicalRecord(element, read: files.read) {
                case .record(let record): object = record
                case .missingFile(let path):
                    summary.missingFiles += 1
                    summary.firstMissingFile = summary.firstMissingFile ?? String(path.prefix(300))
                    return
                case .rejected(let reason):
                    summary.rejected[reason, default: 0] += 1
                    return
                }
            case .activitySummary:
                let activity = try builder.activitySummary(element)
                summary.read[element.nameText, default: 0] += 1
                let day = activity.dateComponents(for: ExportObjects.gregorian)
                if pending.summaries.updateValue(activity, forKey: day) != nil { summary.alreadyPresent += 1 }
                return
            default:
                summary.countUnknown(element.nameText)
                return
            }
        } catch let rejection as ExportObjects.Rejection {
            if rejection.reason.hasPrefix("unknown record type") {
                summary.countUnknown("Record " + (element[.type] ?? "").prefix(100))
            } else {
                summary.rejected[rejection.reason, default: 0] += 1
            }
            return
        }
        summary.read[element.nameText, default: 0] += 1
        pending.add(object, summary: &summary)
    }

    /// Saves what is pending, after the batches in flight: the batch, then
    /// the correlations deferred to follow it, then the routes.
    private func save(_ pending: inout PendingBatch, into summary: inout Summary) async throws {
        try await settle(&pending, into: &summary)
        while !pending.objects.isEmpty {
            let objects = pending.objects
            pending.startNext()
            let saved = try await store.saveIfAbsentCounting(objects)
            summary.saved += saved.objects + saved.members
            summary.alreadyPresent += objects.count - saved.objects
        }
        sendRoutes(&pending)
        try await settle(&pending, into: &summary)
    }

    /// Reads the export's `electrocardiograms/*.csv` files into the
    /// pending batch (the XML has no element for them).
    private func importElectrocardiograms(
        _ files: SideFiles,
        pending: inout PendingBatch,
        summary: inout Summary
    ) throws {
        for path in try files.list("electrocardiograms") where path.lowercased().hasSuffix(".csv") {
            guard let bytes = try files.read(path) else { continue }
            switch ExportElectrocardiogram.parse(bytes) {
            case .electrocardiogram(let ecg):
                summary.read["Electrocardiogram", default: 0] += 1
                pending.add(ecg, summary: &summary)
            case .rejected(let reason):
                summary.rejected[reason, default: 0] += 1
            }
        }
    }

    /// Saves the activity summaries waiting (one per day; a day already
    /// stored with the same values is not saved again).
    private func saveSummaries(_ pending: inout PendingBatch, into summary: inout Summary) async throws {
        guard !pending.summaries.isEmpty else { return }
        let summaries = Array(pending.summaries.values)
        pending.summaries = [:]
        let saved = try await store.saveActivitySummaries(summaries)
        summary.saved += saved
        summary.alreadyPresent += summaries.count - saved
    }

    private func importCharacteristics(_ element: ExportElement) async throws {
        var attributes: [String: String] = [:]
        for name in element.attributeNames { attributes[element.batch.names[name]] = element[name] }
        var me = HKCharacteristics()
        let prefix = "HKCharacteristicTypeIdentifier"
        if let value = attributes[prefix + "BiologicalSex"] {
            me.biologicalSex = ExportNames.biologicalSexes[value] ?? .notSet
        }
        if let value = attributes[prefix + "BloodType"] { me.bloodType = ExportNames.bloodTypes[value] ?? .notSet }
        if let value = attributes[prefix + "FitzpatrickSkinType"] {
            me.fitzpatrickSkinType = ExportNames.skinTypes[value] ?? .notSet
        }
        if let value = attributes[prefix + "WheelchairUse"] {
            me.wheelchairUse = ExportNames.wheelchairUses[value] ?? .notSet
        }
        if let value = attributes[prefix + "DateOfBirth"] { me.dateOfBirth = ExportDate.day(value) }
        // Importing the same file again adds nothing to the log.
        guard try store.savedCharacteristics() != me else { return }
        try await store.setCharacteristics(me)
    }
}

extension HealthExportImporter.Summary {
    /// At most this many distinct names are counted in ``unknown``; the
    /// rest are counted together under ``otherUnknownName``.
    static let unknownNamesLimit = 1_000
    /// Where unknown names beyond ``unknownNamesLimit`` are counted.
    public static let otherUnknownName = "(other names)"

    mutating func countUnknown(_ name: String, _ count: Int = 1) {
        if unknown[name] != nil || unknown.count < Self.unknownNamesLimit {
            unknown[name, default: 0] += count
        } else {
            unknown[Self.otherUnknownName, default: 0] += count
        }
    }
}
