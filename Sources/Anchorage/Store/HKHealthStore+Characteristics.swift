import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

extension HKHealthStore {
    /// Sets the person's characteristics (OBJ-28, OBJ-29): an owner-only
    /// Anchorage extension, since apps can only read them. Recorded in the
    /// log, so it replicates and can be audited; the latest setting wins.
    ///
    /// ```swift
    /// var me = HKCharacteristics()
    /// me.bloodType = .oPositive
    /// me.dateOfBirth = DateComponents(calendar: Calendar(identifier: .gregorian), year: 1990, month: 4, day: 2)
    /// try await owner.setCharacteristics(me)
    /// ```
    public func setCharacteristics(_ characteristics: HKCharacteristics) async throws {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, rule: "OBJ-29", "only the store's owner sets characteristics")
        }
        try await saveSetting(characteristics, kind: StoreKind.characteristics)
    }

    /// The characteristics as this caller may read them: all of them for
    /// the owner; for an app, each one it was granted, `notSet` for those it
    /// asked for and was denied (OBJ-30, AUTH-4).
    ///
    /// - Throws: `errorAuthorizationNotDetermined` when the app never asked
    ///   to read `type` (OBJ-30).
    func characteristics(checking type: HKCharacteristicTypeIdentifier) throws(HKError) -> HKCharacteristics? {
        let engine = try openEngine()
        let characteristicType = HKCharacteristicType(type)
        return try engine.read { txn -> HKCharacteristics? in
            if let principal = caller.bundleIdentifier {
                let kind = EntryKind(rawValue: characteristicType.kindCode)
                switch try engine.grant(principal, kind: kind, access: .read, in: txn) {
                case .granted: break
                case .denied, .requested: return nil
                case nil:
                    throw HKError(
                        .errorAuthorizationNotDetermined,
                        rule: "OBJ-30",
                        "\(principal) has not requested authorization to read \(type.rawValue)"
                    )
                }
            }
            return try engine.setting(HealthIndex.characteristicsSetting, as: HKCharacteristics.self, in: txn)
                ?? HKCharacteristics()
        }
    }

    /// The characteristics as the owner last saved them, or `nil` when none
    /// were: for importers that save them only when they change.
    package func savedCharacteristics() throws(HKError) -> HKCharacteristics? {
        guard caller.isOwner else {
            throw HKError(
                .errorAuthorizationDenied,
                rule: "OBJ-29",
                "only the store's owner reads the saved characteristics"
            )
        }
        let engine = try openEngine()
        return try engine.read { txn in
            try engine.setting(HealthIndex.characteristicsSetting, as: HKCharacteristics.self, in: txn)
        }
    }

    /// The person's biological sex (OBJ-28, OBJ-30).
    public func biologicalSex() throws -> HKBiologicalSexObject {
        HKBiologicalSexObject(biologicalSex: try characteristics(checking: .biologicalSex)?.biologicalSex ?? .notSet)
    }

    /// The person's blood type (OBJ-28, OBJ-30).
    public func bloodType() throws -> HKBloodTypeObject {
        HKBloodTypeObject(bloodType: try characteristics(checking: .bloodType)?.bloodType ?? .notSet)
    }

    /// The person's skin type (OBJ-28, OBJ-30).
    public func fitzpatrickSkinType() throws -> HKFitzpatrickSkinTypeObject {
        HKFitzpatrickSkinTypeObject(
            skinType: try characteristics(checking: .fitzpatrickSkinType)?.fitzpatrickSkinType ?? .notSet
        )
    }

    /// Whether the person uses a wheelchair (OBJ-28, OBJ-30).
    public func wheelchairUse() throws -> HKWheelchairUseObject {
        HKWheelchairUseObject(wheelchairUse: try characteristics(checking: .wheelchairUse)?.wheelchairUse ?? .notSet)
    }

    /// The person's move mode (OBJ-28, OBJ-30); `activeEnergy` when not set.
    public func activityMoveMode() throws -> HKActivityMoveModeObject {
        HKActivityMoveModeObject(
            activityMoveMode: try characteristics(checking: .activityMoveMode)?.activityMoveMode ?? .activeEnergy
        )
    }

    /// The date of birth as Gregorian era, year, month and day (OBJ-28);
    /// empty components when not set or not readable (OBJ-30).
    public func dateOfBirthComponents() throws -> DateComponents {
        try characteristics(checking: .dateOfBirth)?.dateOfBirth ?? DateComponents()
    }
}
