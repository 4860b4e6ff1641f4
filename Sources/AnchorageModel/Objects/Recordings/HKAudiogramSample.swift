import Foundation

/// The air-conduction path of a hearing test.
public enum HKAudiogramConductionType: Int, Hashable, Sendable {
    /// Sound through the air (headphones).
    case air = 0
}

/// The ear a hearing test measured.
public enum HKAudiogramSensitivityTestSide: Int, Hashable, Sendable {
    case left = 0
    case right = 1
}

/// The range a measured sensitivity was clamped to by the test equipment,
/// in decibels hearing level.
public final class HKAudiogramSensitivityPointClampingRange: Hashable, @unchecked Sendable {
    // @unchecked: immutable.
    /// The lowest level the equipment measures, if bounded below.
    public var lowerBound: HKQuantity? { lower.map { HKQuantity(unit: .decibelHearingLevel(), doubleValue: $0) } }
    /// The highest level the equipment measures, if bounded above.
    public var upperBound: HKQuantity? { upper.map { HKQuantity(unit: .decibelHearingLevel(), doubleValue: $0) } }

    package let lower: Double?
    package let upper: Double?

    /// A range in decibels hearing level; at least one bound, the lower
    /// below the upper.
    ///
    /// - Throws: ``HKError`` `AUD-1` otherwise.
    public convenience init(lowerBound: NSNumber?, upperBound: NSNumber?) throws {
        try self.init(lower: lowerBound?.doubleValue, upper: upperBound?.doubleValue)
    }

    package init(lower: Double?, upper: Double?) throws(HKError) {
        guard lower != nil || upper != nil else {
            throw .invalid("AUD-1", "a clamping range needs a lower or an upper bound")
        }
        guard lower?.isFinite ?? true, upper?.isFinite ?? true else {
            throw .invalid("AUD-1", "a clamping range's bounds must be finite numbers")
        }
        if let lower, let upper, !(lower < upper) {
            throw .invalid("AUD-1", "a clamping range's lower bound must be below its upper bound")
        }
        self.lower = lower
        self.upper = upper
    }

    public static func == (
        lhs: HKAudiogramSensitivityPointClampingRange,
        rhs: HKAudiogramSensitivityPointClampingRange
    )
        -> Bool
    {
        lhs.lower == rhs.lower && lhs.upper == rhs.upper
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(lower)
        hasher.combine(upper)
    }
}

/// One measurement of a hearing test: the quietest level heard on one ear.
public final class HKAudiogramSensitivityTest: Hashable, @unchecked Sendable {
    // @unchecked: immutable.
    /// The level, in decibels hearing level (higher is worse hearing).
    public var sensitivity: HKQuantity { HKQuantity(unit: .decibelHearingLevel(), doubleValue: level) }
    /// How the sound reached the ear.
    public let type: HKAudiogramConductionType
    /// Whether the other ear was masked with noise.
    public let masked: Bool
    /// The ear.
    public let side: HKAudiogramSensitivityTestSide
    /// The equipment's range, when it clamped the level.
    public let clampingRange: HKAudiogramSensitivityPointClampingRange?

    /// The level in dBHL.
    package let level: Double

    /// A test result.
    ///
    /// - Throws: ``HKError`` `AUD-1` for a sensitivity not in decibels
    ///   hearing level or outside −20…150 dBHL.
    public init(
        sensitivity: HKQuantity,
        type: HKAudiogramConductionType,
        masked: Bool,
        side: HKAudiogramSensitivityTestSide,
        clampingRange: HKAudiogramSensitivityPointClampingRange?
    ) throws {
        guard sensitivity.is(compatibleWith: .decibelHearingLevel()) else {
            throw HKError.invalid("AUD-1", "a hearing sensitivity is in decibels hearing level (dBHL)")
        }
        try Self.checkLevel(sensitivity.doubleValue(for: .decibelHearingLevel()))
        self.level = sensitivity.doubleValue(for: .decibelHearingLevel())
        self.type = type
        self.masked = masked
        self.side = side
        self.clampingRange = clampingRange
    }

    package init(
        level: Double,
        type: HKAudiogramConductionType,
        masked: Bool,
        side: HKAudiogramSensitivityTestSide,
        clampingRange: HKAudiogramSensitivityPointClampingRange?
    ) throws(HKError) {
        try Self.checkLevel(level)
        self.level = level
        self.type = type
        self.masked = masked
        self.side = side
        self.clampingRange = clampingRange
    }

    /// AUD-1: a level within −20…150 dBHL (audiometers measure −10…120).
    static func checkLevel(_ level: Double) throws(HKError) {
        guard level.isFinite, (-20...150).contains(level) else {
            throw .invalid("AUD-1", "a hearing sensitivity must be within -20…150 dBHL")
        }
    }

    public static func == (lhs: HKAudiogramSensitivityTest, rhs: HKAudiogramSensitivityTest) -> Bool {
        lhs.level == rhs.level && lhs.type == rhs.type && lhs.masked == rhs.masked && lhs.side == rhs.side
            && lhs.clampingRange == rhs.clampingRange
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(level)
        hasher.combine(side)
    }
}

/// One frequency of a hearing test and what was measured there.
public final class HKAudiogramSensitivityPoint: Hashable, @unchecked Sendable {
    // @unchecked: immutable.
    /// The tone's frequency, in hertz.
    public var frequency: HKQuantity { HKQuantity(unit: .hertz(), doubleValue: hertz) }
    /// The measurements at this frequency.
    public let tests: [HKAudiogramSensitivityTest]

    /// The frequency in hertz.
    package let hertz: Double

    /// The left ear's unmasked air-conduction sensitivity, if measured.
    @available(*, deprecated, message: "use tests")
    public var leftEarSensitivity: HKQuantity? { ear(.left) }
    /// The right ear's unmasked air-conduction sensitivity, if measured.
    @available(*, deprecated, message: "use tests")
    public var rightEarSensitivity: HKQuantity? { ear(.right) }

    /// A point with its tests.
    ///
    /// - Throws: ``HKError`` `AUD-1` for a frequency not in hertz or
    ///   outside 1…100,000 Hz, or no tests.
    public convenience init(frequency: HKQuantity, tests: [HKAudiogramSensitivityTest]) throws {
        guard frequency.is(compatibleWith: .hertz()) else {
            throw HKError.invalid("AUD-1", "a hearing test's frequency is in hertz")
        }
        try self.init(hertz: frequency.doubleValue(for: .hertz()), tests: tests)
    }

    /// A point with the unmasked air-conduction sensitivity of either ear.
    @available(*, deprecated, message: "use init(frequency:tests:)")
    public convenience init(
        frequency: HKQuantity,
        leftEarSensitivity: HKQuantity?,
        rightEarSensitivity: HKQuantity?
    )
        throws
    {
        var tests: [HKAudiogramSensitivityTest] = []
        for (side, level) in [(HKAudiogramSensitivityTestSide.left, leftEarSensitivity), (.right, rightEarSensitivity)]
        {
            guard let level else { continue }
            tests.append(
                try HKAudiogramSensitivityTest(
                    sensitivity: level,
                    type: .air,
                    masked: false,
                    side: side,
                    clampingRange: nil
                )
            )
        }
        try self.init(frequency: frequency, tests: tests)
    }

    package init(hertz: Double, tests: [HKAudiogramSensitivityTest]) throws(HKError) {
        guard hertz.isFinite, (1...100_000).contains(hertz) else {
            throw .invalid("AUD-1", "a hearing test's frequency must be within 1…100,000 Hz")
        }
        guard !tests.isEmpty, tests.count <= 16 else {
            throw .invalid("AUD-1", "a sensitivity point holds 1 to 16 tests")
        }
        self.hertz = hertz
        self.tests = tests
    }

    private func ear(_ side: HKAudiogramSensitivityTestSide) -> HKQuantity? {
        tests.first { $0.side == side && $0.type == .air && !$0.masked }?.sensitivity
    }

    public static func == (lhs: HKAudiogramSensitivityPoint, rhs: HKAudiogramSensitivityPoint) -> Bool {
        lhs.hertz == rhs.hertz && lhs.tests == rhs.tests
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(hertz)
    }
}

/// A hearing test's results: sensitivity by frequency and ear (AUD-1).
///
/// ```swift
/// let point = try HKAudiogramSensitivityPoint(
///     frequency: HKQuantity(unit: .hertz(), doubleValue: 1_000),
///     tests: [try HKAudiogramSensitivityTest(sensitivity: HKQuantity(unit: .decibelHearingLevel(), doubleValue: 20),
///                                            type: .air, masked: false, side: .left, clampingRange: nil)])
/// let audiogram = HKAudiogramSample(sensitivityPoints: [point], start: start, end: end, device: nil, metadata: nil)
/// ```
public final class HKAudiogramSample: HKSample, @unchecked Sendable {
    /// The most points an audiogram holds.
    public static let maximumPoints = 30

    /// The points, in ascending frequency.
    public let sensitivityPoints: [HKAudiogramSensitivityPoint]

    package init(points: [HKAudiogramSensitivityPoint], fields: consuming SampleFields) {
        sensitivityPoints = points
        super.init(sampleType: TypeCatalog.audiogram, fields: fields)
    }

    /// An audiogram; stops the program on invalid arguments, as HealthKit does.
    @available(*, deprecated, message: "use init(sensitivityPoints:start:end:device:metadata:)")
    public convenience init(
        sensitivityPoints: [HKAudiogramSensitivityPoint],
        start startDate: Date,
        end endDate: Date,
        metadata: [String: Any]?
    ) {
        self.init(sensitivityPoints: sensitivityPoints, start: startDate, end: endDate, device: nil, metadata: metadata)
    }

    /// An audiogram from `device`; stops the program on invalid arguments.
    public convenience init(
        sensitivityPoints: [HKAudiogramSensitivityPoint],
        start startDate: Date,
        end endDate: Date,
        device: HKDevice?,
        metadata: [String: Any]?
    ) {
        let fields = SampleFields.newOrStop(start: startDate, end: endDate, device: device, metadata: metadata) {
            fields throws(HKError) in
            try fields.checkInterval()
            try Self.check(sensitivityPoints)
        }
        self.init(points: sensitivityPoints, fields: fields)
    }

    /// An audiogram, throwing when an argument is invalid.
    ///
    /// - Throws: ``HKError`` `AUD-1` (points), `OBJ-7` (dates) or a metadata rule.
    public static func validated(
        sensitivityPoints: [HKAudiogramSensitivityPoint],
        start: Date,
        end: Date,
        device: HKDevice? = nil,
        metadata: [String: Any]? = nil
    ) throws(HKError) -> HKAudiogramSample {
        try make(points: sensitivityPoints, .new(start: start, end: end, device: device, metadata: metadata))
    }

    /// The one checked door every audiogram is built through.
    package static func make(
        points: [HKAudiogramSensitivityPoint],
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKAudiogramSample {
        try fields.checkInterval()
        try check(points)
        return HKAudiogramSample(points: points, fields: fields)
    }

    /// AUD-1: 1 to 30 points, frequencies unique and ascending.
    package static func check(_ points: [HKAudiogramSensitivityPoint]) throws(HKError) {
        guard !points.isEmpty, points.count <= maximumPoints else {
            throw .invalid("AUD-1", "an audiogram holds 1 to \(maximumPoints) sensitivity points")
        }
        for index in points.indices.dropFirst() where !(points[index - 1].hertz < points[index].hertz) {
            throw .invalid("AUD-1", "an audiogram's frequencies must be unique and in ascending order")
        }
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        HKAudiogramSample(points: sensitivityPoints, fields: fields)
    }
}
