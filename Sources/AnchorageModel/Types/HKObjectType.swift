/// A kind of health data: the root of the type hierarchy.
///
/// Types are compared by identifier. Get them from the factories, which
/// return `nil` for identifiers HealthKit does not know, or from the
/// initializers of each subclass:
///
/// ```swift
/// let steps = HKObjectType.quantityType(forIdentifier: .stepCount)!
/// let sleep = HKCategoryType(.sleepAnalysis)
/// let workouts = HKObjectType.workoutType()
/// ```
public class HKObjectType: Hashable, @unchecked Sendable, CustomStringConvertible {
    // @unchecked: instances are immutable (every stored property is a `let`
    // of a Sendable type); subclasses add only `let`s.

    /// The type's identifier, as HealthKit spells it.
    public let identifier: String
    /// The code of the type in log entries; stable forever.
    package let kindCode: UInt32

    package init(identifier: String, kindCode: UInt32) {
        self.identifier = identifier
        self.kindCode = kindCode
    }

    public var description: String { identifier }

    public static func == (lhs: HKObjectType, rhs: HKObjectType) -> Bool {
        lhs.identifier == rhs.identifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }

    /// The quantity type for `identifier`, or `nil` if it is unknown.
    public class func quantityType(forIdentifier identifier: HKQuantityTypeIdentifier) -> HKQuantityType? {
        TypeCatalog.quantityTypes[identifier]
    }

    /// The category type for `identifier`, or `nil` if it is unknown.
    public class func categoryType(forIdentifier identifier: HKCategoryTypeIdentifier) -> HKCategoryType? {
        TypeCatalog.categoryTypes[identifier]
    }

    /// The correlation type for `identifier`, or `nil` if it is unknown.
    public class func correlationType(forIdentifier identifier: HKCorrelationTypeIdentifier) -> HKCorrelationType? {
        TypeCatalog.correlationTypes[identifier]
    }

    /// The characteristic type for `identifier`, or `nil` if it is unknown.
    public class func characteristicType(
        forIdentifier identifier: HKCharacteristicTypeIdentifier
    ) -> HKCharacteristicType? {
        TypeCatalog.characteristicTypes[identifier]
    }

    /// The workout type.
    public class func workoutType() -> HKWorkoutType {
        TypeCatalog.workout
    }

    /// The activity summary type, to ask for permission to read
    /// ``HKActivitySummary`` objects.
    ///
    /// ```swift
    /// try await store.requestAuthorization(toShare: [], read: [HKObjectType.activitySummaryType()])
    /// ```
    public class func activitySummaryType() -> HKActivitySummaryType {
        TypeCatalog.activitySummary
    }

    /// The type with `identifier` of any kind, or `nil` if it is unknown.
    ///
    /// ```swift
    /// let type = HKObjectType.type(forIdentifier: "HKQuantityTypeIdentifierHeartRate")
    /// ```
    public class func type(forIdentifier identifier: String) -> HKObjectType? {
        TypeCatalog.byIdentifier[identifier]
    }

    /// The type with `identifier`, for input from outside the program.
    ///
    /// - Throws: ``HKError`` (`OBJ-11`) naming the unknown identifier.
    public class func validatedType(forIdentifier identifier: String) throws(HKError) -> HKObjectType {
        guard let type = TypeCatalog.byIdentifier[identifier] else {
            throw .invalid("OBJ-11", "'\(identifier.prefix(120))' is not a HealthKit type identifier")
        }
        return type
    }
}

/// A type of sample: quantities, categories, correlations and workouts.
public class HKSampleType: HKObjectType, @unchecked Sendable {}

/// The type of the characteristics of a person (OBJ-28).
public final class HKCharacteristicType: HKObjectType, @unchecked Sendable {
    /// The characteristic type for `identifier`; stops the program if it is
    /// unknown.
    public convenience init(_ identifier: HKCharacteristicTypeIdentifier) {
        self.init(
            copying: TypeCatalog.typeOrStop(
                identifier,
                in: TypeCatalog.characteristicTypes,
                rule: "OBJ-28",
                kind: "characteristic"
            )
        )
    }
}

/// The type of ``HKActivitySummary`` objects: the daily Move, Exercise and
/// Stand rings. Apps can read it, never share it.
public final class HKActivitySummaryType: HKObjectType, @unchecked Sendable {
    /// Its identifier, which HealthKit does not publish as a constant.
    package static let identifierString = "HKActivitySummaryTypeIdentifier"
}

/// The type of workouts.
public final class HKWorkoutType: HKSampleType, @unchecked Sendable {}
