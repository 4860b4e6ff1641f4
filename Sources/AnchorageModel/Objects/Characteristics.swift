/// A person's biological sex (OBJ-28).
public enum HKBiologicalSex: Int, Sendable, Hashable, Codable, CaseIterable {
    case notSet = 0
    case female = 1
    case male = 2
    case other = 3
}

/// A person's blood type (OBJ-28).
public enum HKBloodType: Int, Sendable, Hashable, Codable, CaseIterable {
    case notSet = 0
    case aPositive = 1
    case aNegative = 2
    case bPositive = 3
    case bNegative = 4
    case abPositive = 5
    case abNegative = 6
    case oPositive = 7
    case oNegative = 8
}

/// A person's skin type on the Fitzpatrick scale (OBJ-28).
public enum HKFitzpatrickSkinType: Int, Sendable, Hashable, Codable, CaseIterable {
    case notSet = 0
    case I = 1
    case II = 2
    case III = 3
    case IV = 4
    case V = 5
    case VI = 6
}

/// Whether a person uses a wheelchair (OBJ-28).
public enum HKWheelchairUse: Int, Sendable, Hashable, Codable, CaseIterable {
    case notSet = 0
    case no = 1
    case yes = 2
}

/// How a person's move goal is measured.
public enum HKActivityMoveMode: Int, Sendable, Hashable, Codable, CaseIterable {
    case activeEnergy = 1
    case appleMoveTime = 2
}

/// A person's biological sex, as HealthKit returns it.
public final class HKBiologicalSexObject: Hashable, Sendable {
    /// The biological sex.
    public let biologicalSex: HKBiologicalSex
    /// Wraps a value.
    public init(biologicalSex: HKBiologicalSex) { self.biologicalSex = biologicalSex }
}

/// A person's blood type, as HealthKit returns it.
public final class HKBloodTypeObject: Hashable, Sendable {
    /// The blood type.
    public let bloodType: HKBloodType
    /// Wraps a value.
    public init(bloodType: HKBloodType) { self.bloodType = bloodType }
}

/// A person's skin type, as HealthKit returns it.
public final class HKFitzpatrickSkinTypeObject: Hashable, Sendable {
    /// The skin type.
    public let skinType: HKFitzpatrickSkinType
    /// Wraps a value.
    public init(skinType: HKFitzpatrickSkinType) { self.skinType = skinType }
}

/// A person's wheelchair use, as HealthKit returns it.
public final class HKWheelchairUseObject: Hashable, Sendable {
    /// Whether the person uses a wheelchair.
    public let wheelchairUse: HKWheelchairUse
    /// Wraps a value.
    public init(wheelchairUse: HKWheelchairUse) { self.wheelchairUse = wheelchairUse }
}

/// A person's move mode, as HealthKit returns it.
public final class HKActivityMoveModeObject: Hashable, Sendable {
    /// How the move goal is measured.
    public let activityMoveMode: HKActivityMoveMode
    /// Wraps a value.
    public init(activityMoveMode: HKActivityMoveMode) { self.activityMoveMode = activityMoveMode }
}

/// The characteristics of a person, set by the store's owner (OBJ-28,
/// OBJ-29): every field optional, the date of birth as Gregorian
/// era/year/month/day components.
public struct HKCharacteristics: Sendable, Hashable, Codable {
    /// The biological sex (`notSet` when unknown).
    public var biologicalSex: HKBiologicalSex = .notSet
    /// The blood type.
    public var bloodType: HKBloodType = .notSet
    /// The skin type.
    public var fitzpatrickSkinType: HKFitzpatrickSkinType = .notSet
    /// Wheelchair use.
    public var wheelchairUse: HKWheelchairUse = .notSet
    /// The move mode, if set.
    public var activityMoveMode: HKActivityMoveMode?
    /// The date of birth as Gregorian era, year, month and day.
    public var dateOfBirth: DateComponents?

    /// Nothing set.
    public init() {}
}

extension HKBiologicalSexObject {
    public static func == (lhs: HKBiologicalSexObject, rhs: HKBiologicalSexObject) -> Bool {
        lhs.biologicalSex == rhs.biologicalSex
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(biologicalSex) }
}

extension HKBloodTypeObject {
    public static func == (lhs: HKBloodTypeObject, rhs: HKBloodTypeObject) -> Bool { lhs.bloodType == rhs.bloodType }
    public func hash(into hasher: inout Hasher) { hasher.combine(bloodType) }
}

extension HKFitzpatrickSkinTypeObject {
    public static func == (lhs: HKFitzpatrickSkinTypeObject, rhs: HKFitzpatrickSkinTypeObject) -> Bool {
        lhs.skinType == rhs.skinType
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(skinType) }
}

extension HKWheelchairUseObject {
    public static func == (lhs: HKWheelchairUseObject, rhs: HKWheelchairUseObject) -> Bool {
        lhs.wheelchairUse == rhs.wheelchairUse
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(wheelchairUse) }
}

extension HKActivityMoveModeObject {
    public static func == (lhs: HKActivityMoveModeObject, rhs: HKActivityMoveModeObject) -> Bool {
        lhs.activityMoveMode == rhs.activityMoveMode
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(activityMoveMode) }
}
