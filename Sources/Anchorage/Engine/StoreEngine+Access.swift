import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

extension StoreEngine {
    /// The recorded status of `caller`'s access to `kind`, if any.
    func grant(
        _ principal: String,
        kind: EntryKind,
        access: AuthorizationRecord.Access,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> AuthorizationRecord.Status? {
        try txn.withValue(forKey: HealthIndex.grantKey(principal, kind: kind, access: access), in: index.grants) {
            $0.isEmpty ? nil : AuthorizationRecord.Status(rawValue: $0[0])
        } ?? nil
    }

    /// Whether `caller` may read the objects of `kind` that are not samples
    /// (activity summaries, a person's medications): the owner always, an
    /// app when granted; an app denied, or still waiting for the owner's
    /// decision, reads none.
    ///
    /// - Throws: `errorAuthorizationNotDetermined` under `rule` when the app
    ///   never asked to read `what`.
    func mayRead(
        _ kind: EntryKind,
        caller: Caller,
        rule: String,
        what: String,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> Bool {
        guard let principal = caller.bundleIdentifier else { return true }
        switch try grant(principal, kind: kind, access: .read, in: txn) {
        case .granted: return true
        case .denied, .requested: return false
        case nil:
            throw HKError(
                .errorAuthorizationNotDetermined,
                rule: rule,
                "\(principal) has not requested authorization to read \(what)"
            )
        }
    }

    /// What `caller` may read of `type` (AUTH-4, AUTH-5, AUTH-7).
    ///
    /// - Throws: `errorAuthorizationNotDetermined` when the app never asked
    ///   to read the type and cannot share it either.
    func readScope(
        for type: HKObjectType,
        caller: Caller,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> ReadScope {
        guard let principal = caller.bundleIdentifier else { return .all }
        let kind = EntryKind(rawValue: type.kindCode)
        let read = try grant(principal, kind: kind, access: .read, in: txn)
        if read == .granted { return .all }
        let share = try grant(principal, kind: kind, access: .share, in: txn)
        if share == .granted { return ReadScope(everything: false, onlySource: principal) }
        if read != nil || share != nil { return .nothing }
        throw HKError(
            .errorAuthorizationNotDetermined,
            rule: "AUTH-7",
            "\(principal) has not requested authorization to read \(type.identifier)"
        )
    }

    /// Whether the session's caller can see the live object `id`, recorded
    /// as `record` (AUTH-4, AUTH-5): to an app, an object it cannot read is
    /// one that does not exist. A correlation is seen by the app that saved
    /// it, or through a member the app can read (CQ-4); an object of a type
    /// this version does not know, only by the app that saved it.
    func isVisible(
        _ id: UUID,
        _ record: ObjectRecord,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> Bool {
        guard let principal = session.caller.bundleIdentifier else { return true }
        guard let type = TypeCatalog.byKindCode[record.kind.rawValue] else { return record.source == principal }
        guard type is HKCorrelationType else {
            return try memberScope(for: type, in: txn, session: &session).admits(source: record.source)
        }
        if record.source == principal { return true }
        for member in try index.pairs(startingWith: id, in: index.members, txn: txn) {
            guard let memberRecord = try index.record(member, in: txn), memberRecord.isLive,
                let memberType = TypeCatalog.byKindCode[memberRecord.kind.rawValue]
            else { continue }
            if try memberScope(for: memberType, in: txn, session: &session).admits(source: memberRecord.source) {
                return true
            }
        }
        return false
    }

    /// Checks that `caller` may save or delete samples of `type` (AUTH-7).
    func checkShare(
        _ type: HKSampleType,
        caller: Caller,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws {
        guard let principal = caller.bundleIdentifier else { return }
        switch try grant(principal, kind: EntryKind(rawValue: type.kindCode), access: .share, in: txn) {
        case .granted:
            return
        case .denied:
            throw HKError(
                .errorAuthorizationDenied,
                rule: "AUTH-7",
                "\(principal) is not authorized to share \(type.identifier)"
            )
        case .requested:
            throw HKError(
                .errorAuthorizationNotDetermined,
                rule: "AUTH-7",
                "the owner has not yet decided \(principal)'s request to share \(type.identifier)"
            )
        case nil:
            throw HKError(
                .errorAuthorizationNotDetermined,
                rule: "AUTH-7",
                "\(principal) has not requested authorization to share \(type.identifier)"
            )
        }
    }
}
