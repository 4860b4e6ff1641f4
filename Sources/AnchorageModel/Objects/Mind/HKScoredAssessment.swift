import Foundation

/// A questionnaire's answers and the score they add up to: the base of
/// ``HKGAD7Assessment`` (anxiety) and ``HKPHQ9Assessment`` (depression)
/// (ASSESS-1).
public class HKScoredAssessment: HKSample, @unchecked Sendable {
    /// The sum of the answers' scores.
    public let score: Int
    /// The answers' raw values, in question order.
    package let answerValues: [Int]

    package init(type: HKScoredAssessmentType, answers: [Int], score: Int, fields: consuming SampleFields) {
        self.answerValues = answers
        self.score = score
        super.init(sampleType: type, fields: fields)
    }

    /// The one checked door every assessment is built through: a GAD-7 or
    /// a PHQ-9 by `type`, with exactly its number of answers.
    package static func make(
        type: HKScoredAssessmentType,
        answers: [Int],
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKScoredAssessment {
        try fields.checkInterval()
        switch type.identifier {
        case HKScoredAssessmentTypeIdentifier.GAD7.rawValue:
            let parsed = try HKGAD7Assessment.parse(answers)
            return HKGAD7Assessment(answers: parsed, fields: fields)
        case HKScoredAssessmentTypeIdentifier.PHQ9.rawValue:
            let parsed = try HKPHQ9Assessment.parse(answers)
            return HKPHQ9Assessment(answers: parsed, fields: fields)
        default:
            throw .invalid("ASSESS-1", "\(type.identifier) is not a scored assessment type")
        }
    }
}

/// A GAD-7 anxiety questionnaire: seven answers, scored 0…21 (ASSESS-1).
///
/// ```swift
/// let gad7 = HKGAD7Assessment(date: .now, answers: [.severalDays, .notAtAll, .notAtAll, .severalDays,
///                                                   .notAtAll, .notAtAll, .notAtAll])
/// gad7.risk    // .noneToMinimal (score 2)
/// ```
public final class HKGAD7Assessment: HKScoredAssessment, @unchecked Sendable {
    /// An answer: how often over the last two weeks; its raw value is its score.
    public enum Answer: Int, Hashable, Sendable {
        case notAtAll = 0
        case severalDays, moreThanHalfTheDays, nearlyEveryDay
    }

    /// The risk the score indicates: 0–4, 5–9, 10–14, 15–21.
    public enum Risk: Int, Hashable, Sendable {
        case noneToMinimal = 1
        case mild, moderate, severe
    }

    /// The answers, in question order.
    public var answers: [Answer] { answerValues.map { Answer(rawValue: $0)! } }

    /// The risk the score indicates.
    public var risk: Risk {
        switch score {
        case ..<5: .noneToMinimal
        case ..<10: .mild
        case ..<15: .moderate
        default: .severe
        }
    }

    package init(answers: [Answer], fields: consuming SampleFields) {
        super.init(
            type: TypeCatalog.scoredAssessmentTypes[.GAD7]!,
            answers: answers.map(\.rawValue),
            score: answers.reduce(0) { $0 + $1.rawValue },
            fields: fields
        )
    }

    /// An assessment at `date`; stops the program unless there are exactly
    /// seven answers, as HealthKit does.
    public convenience init(date: Date, answers: [Answer], metadata: [String: Any]? = [:]) {
        let fields = SampleFields.newOrStop(start: date, end: date, device: nil, metadata: metadata) {
            fields throws(HKError) in
            try fields.checkInterval()
            _ = try Self.parse(answers.map(\.rawValue))
        }
        self.init(answers: answers, fields: fields)
    }

    /// Seven known answers (ASSESS-1).
    package static func parse(_ values: [Int]) throws(HKError) -> [Answer] {
        guard values.count == 7 else { throw .invalid("ASSESS-1", "a GAD-7 assessment has exactly 7 answers") }
        var answers: [Answer] = []
        for (index, value) in values.enumerated() {
            guard let answer = Answer(rawValue: value) else {
                throw .invalid("ASSESS-1", "answer \(index + 1) is not a GAD-7 answer; answers are 0…3")
            }
            answers.append(answer)
        }
        return answers
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        HKGAD7Assessment(answers: answers, fields: fields)
    }
}

/// A PHQ-9 depression questionnaire: nine answers, scored 0…27; the ninth
/// may be declined (ASSESS-1).
///
/// ```swift
/// let phq9 = HKPHQ9Assessment(date: .now, answers: Array(repeating: .severalDays, count: 8) + [.preferNotToAnswer])
/// phq9.score   // 8
/// ```
public final class HKPHQ9Assessment: HKScoredAssessment, @unchecked Sendable {
    /// An answer: how often over the last two weeks; its raw value is its
    /// score, but for `preferNotToAnswer`, which scores 0.
    public enum Answer: Int, Hashable, Sendable {
        case notAtAll = 0
        case severalDays, moreThanHalfTheDays, nearlyEveryDay, preferNotToAnswer
    }

    /// The risk the score indicates: 0–4, 5–9, 10–14, 15–19, 20–27.
    public enum Risk: Int, Hashable, Sendable {
        case noneToMinimal = 1
        case mild, moderate, moderatelySevere, severe
    }

    /// The answers, in question order.
    public var answers: [Answer] { answerValues.map { Answer(rawValue: $0)! } }

    /// The risk the score indicates.
    public var risk: Risk {
        switch score {
        case ..<5: .noneToMinimal
        case ..<10: .mild
        case ..<15: .moderate
        case ..<20: .moderatelySevere
        default: .severe
        }
    }

    package init(answers: [Answer], fields: consuming SampleFields) {
        super.init(
            type: TypeCatalog.scoredAssessmentTypes[.PHQ9]!,
            answers: answers.map(\.rawValue),
            score: answers.reduce(0) { $0 + ($1 == .preferNotToAnswer ? 0 : $1.rawValue) },
            fields: fields
        )
    }

    /// An assessment at `date`; stops the program unless there are exactly
    /// nine answers, only the last declined if any, as HealthKit does.
    public convenience init(date: Date, answers: [Answer], metadata: [String: Any]? = [:]) {
        let fields = SampleFields.newOrStop(start: date, end: date, device: nil, metadata: metadata) {
            fields throws(HKError) in
            try fields.checkInterval()
            _ = try Self.parse(answers.map(\.rawValue))
        }
        self.init(answers: answers, fields: fields)
    }

    /// Nine known answers, only the ninth (the optional question) declined
    /// (ASSESS-1).
    package static func parse(_ values: [Int]) throws(HKError) -> [Answer] {
        guard values.count == 9 else { throw .invalid("ASSESS-1", "a PHQ-9 assessment has exactly 9 answers") }
        var answers: [Answer] = []
        for (index, value) in values.enumerated() {
            guard let answer = Answer(rawValue: value) else {
                throw .invalid("ASSESS-1", "answer \(index + 1) is not a PHQ-9 answer; answers are 0…4")
            }
            guard answer != .preferNotToAnswer || index == 8 else {
                throw .invalid("ASSESS-1", "only the ninth PHQ-9 question may be declined")
            }
            answers.append(answer)
        }
        return answers
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        HKPHQ9Assessment(answers: answers, fields: fields)
    }
}
