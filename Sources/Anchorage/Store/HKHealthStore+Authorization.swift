import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// Whether an app may save a type (AUTH-3).
public enum HKAuthorizationStatus: Int, Sendable, Hashable {
    case notDetermined = 0
    case sharingDenied = 1
    case sharingAuthorized = 2
}

/// Whether asking for authorization would prompt (AUTH-6).
public enum HKAuthorizationRequestStatus: Int, Sendable, Hashable {
    case unknown = 0
    case shouldRequest = 1
    case unnecessary = 2
}

extension HKHealthStore {
    /// Types no app may share (AUTH-8): the system computes them.
    static let readOnlyTypes: Set<String> = [
        HKQuantityTypeIdentifier.appleExerciseTime.rawValue,
        HKQuantityTypeIdentifier.appleStandTime.rawValue,
        HKQuantityTypeIdentifier.walkingHeartRateAverage.rawValue,
        HKCategoryTypeIdentifier.appleStandHour.rawValue,
    ]

    /// Whether reading `type` waits for the owner even under `grantAll`:
    /// clinical records (AUTH-13), medication dose events and medications
    /// (AUTH-12).
    static func ownerDecides(_ type: HKObjectType) -> Bool {
        type is HKClinicalType || type is HKMedicationDoseEventType || type is HKUserAnnotatedMedicationType
    }

    /// Asks for access to share and read types (AUTH-1). The request is
    /// recorded in the log; the store's owner decides it (or the store's
    /// ``Configuration/authorizationPolicy`` does at once). Success means the
    /// request was recorded, not that anything was granted. The owner needs
    /// no authorization; its requests succeed and record nothing.
    ///
    /// - Throws: `errorInvalidArgument` for no types at all, a correlation
    ///   type (CQ-6), or sharing a read-only type (AUTH-8), clinical records
    ///   (AUTH-13) or medication dose events (AUTH-12).
    public func requestAuthorization(
        toShare typesToShare: Set<HKSampleType>?,
        read typesToRead: Set<HKObjectType>?
    )
        async throws
    {
        let share = typesToShare ?? []
        let read = typesToRead ?? []
        guard !share.isEmpty || !read.isEmpty else {
            throw HKError(.errorInvalidArgument, rule: "AUTH-1", "request authorization for at least one type")
        }
        for type in Array(share) as [HKObjectType] + Array(read) where type is HKCorrelationType {
            throw HKError(
                .errorInvalidArgument,
                rule: "CQ-6",
                "authorization for \(type.identifier) is disallowed; request its member types instead"
            )
        }
        if let readOnly = share.first(where: { Self.readOnlyTypes.contains($0.identifier) }) {
            throw HKError(.errorInvalidArgument, rule: "AUTH-8", "\(readOnly.identifier) cannot be shared by apps")
        }
        if let clinical = share.first(where: { $0 is HKClinicalType }) {
            throw HKError(
                .errorInvalidArgument,
                rule: "AUTH-13",
                "\(clinical.identifier) cannot be shared by apps: clinical records come from health institutions"
            )
        }
        if let medication = share.first(where: { $0 is HKMedicationDoseEventType }) {
            throw HKError(
                .errorInvalidArgument,
                rule: "AUTH-12",
                "\(medication.identifier) cannot be shared by apps: dose events are logged in the person's Medications"
            )
        }
        let engine = try await openEngine()
        guard let revision = caller.revision else { return }
        let principal = revision.source.bundleIdentifier
        let decided: AuthorizationRecord.Status =
            switch engine.configuration.authorizationPolicy {
            case .ownerDecides: .requested
            case .grantAll: .granted
            case .denyAll: .denied
            }
        let wanted = share.map { ($0 as HKObjectType, AuthorizationRecord.Access.share) } + read.map { ($0, .read) }
        // AUTH-13, AUTH-12: reading clinical records and medications is
        // decided by the owner, one request at a time, whatever the policy
        // grants other types.
        let decisions = try engine.read { txn in
            try wanted.filter { type, access in
                try engine.grant(principal, kind: EntryKind(rawValue: type.kindCode), access: access, in: txn) == nil
            }.map {
                AuthorizationRecord.Decision(
                    type: $0.0.identifier,
                    access: $0.1,
                    status: Self.ownerDecides($0.0) && decided == .granted ? .requested : decided
                )
            }
        }
        guard !decisions.isEmpty else { return }
        try await engine.appendAuthorization(
            AuthorizationRecord(
                principal: principal,
                name: revision.source.name,
                decisions: decisions.sorted { ($0.type, $0.access.rawValue) < ($1.type, $1.access.rawValue) }
            )
        )
    }

    /// Asks for access and calls `completion` with the outcome (AUTH-1).
    public func requestAuthorization(
        toShare typesToShare: Set<HKSampleType>?,
        read typesToRead: Set<HKObjectType>?,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        complete(completion) { try await self.requestAuthorization(toShare: typesToShare, read: typesToRead) }
    }

    /// Whether this app may save `type` (AUTH-3); the owner may save every type.
    /// Read access is never revealed (AUTH-4).
    public func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus {
        guard let engine = try? openEngine() else { return .notDetermined }
        guard let principal = caller.bundleIdentifier else { return .sharingAuthorized }
        let status = try? engine.read { txn in
            try engine.grant(principal, kind: EntryKind(rawValue: type.kindCode), access: .share, in: txn)
        }
        switch status {
        case .granted: return .sharingAuthorized
        case .denied: return .sharingDenied
        default: return .notDetermined
        }
    }

    /// Of `types`, those this app asked to read or share, whatever the owner
    /// decided: the ones a query may name without
    /// `errorAuthorizationNotDetermined` (AUTH-7), each read as AUTH-4 and
    /// AUTH-5 say. The owner's store keeps every type.
    ///
    /// ```swift
    /// let feedTypes = try await store.typesAskedFor(HKObjectType.allSampleTypes)
    /// ```
    package func typesAskedFor<T: HKObjectType>(_ types: [T]) async throws -> [T] {
        guard let principal = caller.bundleIdentifier else { return types }
        let engine = try await openEngine()
        return try engine.read { txn in
            try types.filter { type in
                let kind = EntryKind(rawValue: type.kindCode)
                return try engine.grant(principal, kind: kind, access: .read, in: txn) != nil
                    || engine.grant(principal, kind: kind, access: .share, in: txn) != nil
            }
        }
    }

    /// Whether requesting these types would ask anything new (AUTH-6).
    public func statusForAuthorizationRequest(
        toShare typesToShare: Set<HKSampleType>,
        read typesToRead: Set<HKObjectType>
    )
        async throws -> HKAuthorizationRequestStatus
    {
        let engine = try await openEngine()
        guard let principal = caller.bundleIdentifier else { return .unnecessary }
        let wanted =
            typesToShare.map { ($0 as HKObjectType, AuthorizationRecord.Access.share) }
            + typesToRead.map { ($0, .read) }
        let undecided = try engine.read { txn in
            try wanted.contains { type, access in
                try engine.grant(principal, kind: EntryKind(rawValue: type.kindCode), access: access, in: txn) == nil
            }
        }
        return undecided ? .shouldRequest : .unnecessary
    }

    /// Whether requesting would ask anything new, through a completion (AUTH-6).
    public func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HKSampleType>,
        read typesToRead: Set<HKObjectType>,
        completion: @escaping @Sendable (HKAuthorizationRequestStatus, (any Error)?) -> Void
    ) {
        Task {
            do {
                completion(try await statusForAuthorizationRequest(toShare: typesToShare, read: typesToRead), nil)
            } catch {
                completion(.unknown, error)
            }
        }
    }

    /// The owner's decision on an app's access: grants (or denies) sharing
    /// and reading of types, recorded in the log so it replicates and can be
    /// audited. Only the owner may call it (`errorAuthorizationDenied`); no
    /// app may be granted sharing of medication dose events (AUTH-12).
    ///
    /// ```swift
    /// try await owner.setAuthorization(for: app, toShare: [steps], read: [steps, heartRate], granted: true)
    /// ```
    public func setAuthorization(
        for source: HKSource,
        toShare typesToShare: Set<HKSampleType> = [],
        read typesToRead: Set<HKObjectType> = [],
        granted: Bool
    ) async throws {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, rule: "AUTH-11", "only the store's owner decides authorization")
        }
        guard source.bundleIdentifier.utf8.count <= 255, !source.bundleIdentifier.isEmpty else {
            throw HKError(.errorInvalidArgument, rule: "AUTH-11", "a bundle identifier has 1 to 255 bytes")
        }
        if granted, let medication = typesToShare.first(where: { $0 is HKMedicationDoseEventType }) {
            throw HKError(
                .errorInvalidArgument,
                rule: "AUTH-12",
                "\(medication.identifier) cannot be shared by apps: dose events are logged in the person's Medications"
            )
        }
        let status: AuthorizationRecord.Status = granted ? .granted : .denied
        let decisions =
            typesToShare.map { AuthorizationRecord.Decision(type: $0.identifier, access: .share, status: status) }
            + typesToRead.map { AuthorizationRecord.Decision(type: $0.identifier, access: .read, status: status) }
        guard !decisions.isEmpty else { return }
        try await openEngine().appendAuthorization(
            AuthorizationRecord(
                principal: source.bundleIdentifier,
                name: source.name,
                decisions: decisions.sorted { ($0.type, $0.access.rawValue) < ($1.type, $1.access.rawValue) }
            )
        )
    }

    /// The types apps asked for and the owner has not decided yet, by app.
    public func pendingAuthorizationRequests() throws -> [HKSource: (share: Set<HKSampleType>, read: Set<HKObjectType>)]
    {
        let engine = try openEngine()
        return try engine.read { txn in try engine.grants(in: .requested, in: txn) }
    }

    /// The types the owner granted each app, by app: what
    /// ``setAuthorization(for:toShare:read:granted:)`` last granted and did
    /// not deny since. Only the owner may ask (`errorAuthorizationDenied`).
    ///
    /// ```swift
    /// let granted = try owner.grantedAuthorizations()[app]?.read ?? []
    /// ```
    public func grantedAuthorizations() throws -> [HKSource: (share: Set<HKSampleType>, read: Set<HKObjectType>)] {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, rule: "AUTH-11", "only the store's owner reads apps' grants")
        }
        let engine = try openEngine()
        return try engine.read { txn in try engine.grants(in: .granted, in: txn) }
    }
}
