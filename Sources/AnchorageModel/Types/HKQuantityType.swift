/// A type of quantity sample, with its aggregation style (OBJ-11) and the
/// units it accepts (UNIT-19).
///
/// ```swift
/// let heartRate = HKQuantityType(.heartRate)
/// heartRate.aggregationStyle                                          // .discreteTemporallyWeighted
/// heartRate.is(compatibleWith: .count().unitDivided(by: .minute()))   // true
/// ```
public final class HKQuantityType: HKSampleType, @unchecked Sendable {
    /// How samples of this type aggregate over time.
    public let aggregationStyle: HKQuantityAggregationStyle
    /// A unit the type's samples may use; every compatible unit is accepted.
    ///
    /// Statistics come back in this unit (an Anchorage extension to read it).
    public let canonicalUnit: HKUnit

    package init(
        identifier: HKQuantityTypeIdentifier,
        kindCode: UInt32,
        style: HKQuantityAggregationStyle,
        unit: HKUnit
    ) {
        self.aggregationStyle = style
        self.canonicalUnit = unit
        super.init(identifier: identifier.rawValue, kindCode: kindCode)
    }

    /// The quantity type for `identifier`; stops the program if it is
    /// unknown. For identifiers from outside the program use
    /// ``validated(_:)`` or ``HKObjectType/quantityType(forIdentifier:)``.
    public convenience init(_ identifier: HKQuantityTypeIdentifier) {
        let known = TypeCatalog.typeOrStop(identifier, in: TypeCatalog.quantityTypes, rule: "OBJ-11", kind: "quantity")
        self.init(
            identifier: identifier,
            kindCode: known.kindCode,
            style: known.aggregationStyle,
            unit: known.canonicalUnit
        )
    }

    /// The quantity type for `identifier`.
    ///
    /// - Throws: ``HKError`` (`OBJ-11`) when the identifier is unknown.
    public static func validated(_ identifier: HKQuantityTypeIdentifier) throws(HKError) -> HKQuantityType {
        try TypeCatalog.type(identifier, in: TypeCatalog.quantityTypes, rule: "OBJ-11", kind: "quantity")
    }

    /// Whether samples of this type may be expressed in `unit` (UNIT-19).
    public func `is`(compatibleWith unit: HKUnit) -> Bool {
        canonicalUnit.isCompatible(with: unit)
    }

    /// The identifier as a typed value.
    package var quantityIdentifier: HKQuantityTypeIdentifier { HKQuantityTypeIdentifier(rawValue: identifier) }
}

/// A type of category sample, with its legal values (OBJ-13).
///
/// ```swift
/// let sleep = HKCategoryType(.sleepAnalysis)
/// ```
public final class HKCategoryType: HKSampleType, @unchecked Sendable {
    /// The values samples of this type may hold.
    package let valueSet: CategoryValueSet

    package init(identifier: HKCategoryTypeIdentifier, kindCode: UInt32, values: CategoryValueSet) {
        self.valueSet = values
        super.init(identifier: identifier.rawValue, kindCode: kindCode)
    }

    /// The category type for `identifier`; stops the program if it is unknown.
    public convenience init(_ identifier: HKCategoryTypeIdentifier) {
        let known = TypeCatalog.typeOrStop(identifier, in: TypeCatalog.categoryTypes, rule: "OBJ-13", kind: "category")
        self.init(identifier: identifier, kindCode: known.kindCode, values: known.valueSet)
    }

    /// The category type for `identifier`.
    ///
    /// - Throws: ``HKError`` (`OBJ-13`) when the identifier is unknown.
    public static func validated(_ identifier: HKCategoryTypeIdentifier) throws(HKError) -> HKCategoryType {
        try TypeCatalog.type(identifier, in: TypeCatalog.categoryTypes, rule: "OBJ-13", kind: "category")
    }

    /// The values samples of this type may hold.
    public var legalValues: ClosedRange<Int> { valueSet.legalValues }
}

/// A type of correlation: `bloodPressure` or `food` (OBJ-15).
public final class HKCorrelationType: HKSampleType, @unchecked Sendable {
    /// The correlation type for `identifier`; stops the program if it is unknown.
    public convenience init(_ identifier: HKCorrelationTypeIdentifier) {
        self.init(
            copying: TypeCatalog.typeOrStop(
                identifier,
                in: TypeCatalog.correlationTypes,
                rule: "OBJ-15",
                kind: "correlation"
            )
        )
    }

    /// The identifier as a typed value.
    package var correlationIdentifier: HKCorrelationTypeIdentifier { HKCorrelationTypeIdentifier(rawValue: identifier) }
}
