/// Every type Anchorage knows, by identifier and by log kind code.
package enum TypeCatalog {
    package static let quantityTypes: [HKQuantityTypeIdentifier: HKQuantityType] = Dictionary(
        uniqueKeysWithValues: quantityRows.map { code, identifier, style, unit in
            (identifier, HKQuantityType(identifier: identifier, kindCode: code, style: style, unit: HKUnit(from: unit)))
        }
    )

    package static let categoryTypes: [HKCategoryTypeIdentifier: HKCategoryType] = Dictionary(
        uniqueKeysWithValues: categoryRows.map { code, identifier, values in
            (identifier, HKCategoryType(identifier: identifier, kindCode: code, values: values))
        }
    )

    package static let correlationTypes: [HKCorrelationTypeIdentifier: HKCorrelationType] = [
        .bloodPressure: HKCorrelationType(
            identifier: HKCorrelationTypeIdentifier.bloodPressure.rawValue,
            kindCode: 3001
        ),
        .food: HKCorrelationType(identifier: HKCorrelationTypeIdentifier.food.rawValue, kindCode: 3002),
    ]

    package static let workout = HKWorkoutType(identifier: HKWorkoutTypeIdentifier, kindCode: 4001)

    package static let characteristicTypes: [HKCharacteristicTypeIdentifier: HKCharacteristicType] = Dictionary(
        uniqueKeysWithValues: [
            (HKCharacteristicTypeIdentifier.biologicalSex, UInt32(5001)), (.bloodType, 5002), (.dateOfBirth, 5003),
            (.fitzpatrickSkinType, 5004), (.wheelchairUse, 5005), (.activityMoveMode, 5006),
        ].map { identifier, code in
            (identifier, HKCharacteristicType(identifier: identifier.rawValue, kindCode: code))
        }
    )

    package static let activitySummary = HKActivitySummaryType(
        identifier: HKActivitySummaryType.identifierString,
        kindCode: 6001
    )

    package static let allTypes: [HKObjectType] =
        Array(quantityTypes.values) + Array(categoryTypes.values) + Array(correlationTypes.values) + [workout]
        + Array(characteristicTypes.values) + [activitySummary]

    /// The types Anchorage stores data of, and those of data it does not
    /// (``otherTypes``), which exist for authorization and queries.
    package static let knownTypes: [HKObjectType] = allTypes + otherTypes

    package static let byIdentifier: [String: HKObjectType] = Dictionary(
        uniqueKeysWithValues: knownTypes.map { ($0.identifier, $0) }
    )

    package static let byKindCode: [UInt32: HKObjectType] = Dictionary(
        uniqueKeysWithValues: knownTypes.map { ($0.kindCode, $0) }
    )

    /// Sample types by code, in flat tables for the codec's hot path.
    private static let quantityByCode: [HKQuantityType] = quantityTypes.values.sorted { $0.kindCode < $1.kindCode }
    private static let categoryByCode: [HKCategoryType] = categoryTypes.values.sorted { $0.kindCode < $1.kindCode }

    /// The sample type stored under `code`, or `nil`.
    package static func sampleType(forKindCode code: UInt32) -> HKSampleType? {
        switch code {
        case 1001..<1001 + UInt32(quantityByCode.count): quantityByCode[Int(code - 1001)]
        case 2001..<2001 + UInt32(categoryByCode.count): categoryByCode[Int(code - 2001)]
        default: byKindCode[code] as? HKSampleType
        }
    }

    /// The kind code of insulin delivery, whose samples need a reason.
    package static let insulinDeliveryCode = quantityTypes[.insulinDelivery]!.kindCode
}
