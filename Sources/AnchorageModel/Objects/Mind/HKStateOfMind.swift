import Foundation

/// How a person feels: a momentary emotion or a day's mood, its valence
/// from −1 (very unpleasant) to +1 (very pleasant), the words they chose
/// for it and what it was about (MIND-1).
///
/// ```swift
/// let mood = HKStateOfMind(date: .now, kind: .dailyMood, valence: 0.4,
///                          labels: [.content, .grateful], associations: [.family])
/// try await store.save(mood)
/// ```
public final class HKStateOfMind: HKSample, @unchecked Sendable {
    /// Whether the record is a moment's emotion or a day's mood.
    public enum Kind: Int, Hashable, Sendable {
        case momentaryEmotion = 1
        case dailyMood = 2
    }

    /// The valence in seven bands.
    public enum ValenceClassification: Int, Hashable, Sendable {
        case veryUnpleasant = 1
        case unpleasant = 2
        case slightlyUnpleasant = 3
        case neutral = 4
        case slightlyPleasant = 5
        case pleasant = 6
        case veryPleasant = 7

        /// The band of `valence`; `nil` outside −1…+1.
        public init?(valence: Double) {
            guard valence.isFinite, (-1...1).contains(valence) else { return nil }
            // Seven equal bands of the range −1…+1.
            let band = min(6, Int(((valence + 1) / 2 * 7).rounded(.down)))
            self.init(rawValue: band + 1)
        }
    }

    /// The words for a feeling.
    public enum Label: Int, Hashable, Sendable, CaseIterable {
        case amazed = 1
        case amused, angry, anxious, ashamed, brave, calm, content, disappointed, discouraged, disgusted
        case embarrassed, excited, frustrated, grateful, guilty, happy, hopeless, irritated, jealous, joyful, lonely
        case passionate, peaceful, proud, relieved, sad, scared, stressed, surprised, worried, annoyed, confident
        case drained, hopeful, indifferent, overwhelmed, satisfied
    }

    /// What a feeling was about.
    public enum Association: Int, Hashable, Sendable, CaseIterable {
        case community = 1
        case currentEvents, dating, education, family, fitness, friends, health, hobbies, identity
        case money, partner, selfCare, spirituality, tasks, travel, work, weather
    }

    /// A moment's emotion or a day's mood.
    public let kind: Kind
    /// From −1 (very unpleasant) to +1 (very pleasant).
    public let valence: Double
    /// The words chosen, in the order given, each once.
    public let labels: [Label]
    /// What it was about, in the order given, each once.
    public let associations: [Association]

    /// The valence's band.
    public var valenceClassification: ValenceClassification { ValenceClassification(valence: valence) ?? .neutral }

    package init(
        kind: Kind,
        valence: Double,
        labels: [Label],
        associations: [Association],
        fields: consuming SampleFields
    ) {
        self.kind = kind
        self.valence = valence
        self.labels = labels
        self.associations = associations
        super.init(sampleType: TypeCatalog.stateOfMind, fields: fields)
    }

    /// A state of mind at `date`; stops the program on invalid arguments, as
    /// HealthKit does.
    public convenience init(
        date: Date,
        kind: Kind,
        valence: Double,
        labels: [Label],
        associations: [Association],
        metadata: [String: Any]? = [:]
    ) {
        let fields = SampleFields.newOrStop(start: date, end: date, device: nil, metadata: metadata) {
            fields throws(HKError) in
            try fields.checkInterval()
            try Self.check(valence: valence, labels: labels, associations: associations)
        }
        self.init(kind: kind, valence: valence, labels: labels, associations: associations, fields: fields)
    }

    /// A state of mind, throwing when an argument is invalid.
    ///
    /// - Throws: ``HKError`` `MIND-1` for a valence outside −1…+1 or a
    ///   label or association given twice.
    public static func validated(
        date: Date,
        kind: Kind,
        valence: Double,
        labels: [Label],
        associations: [Association],
        metadata: [String: Any]? = nil
    ) throws(HKError) -> HKStateOfMind {
        try make(
            kind: kind,
            valence: valence,
            labels: labels,
            associations: associations,
            .new(start: date, end: date, device: nil, metadata: metadata)
        )
    }

    /// The one checked door every state of mind is built through.
    package static func make(
        kind: Kind,
        valence: Double,
        labels: [Label],
        associations: [Association],
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKStateOfMind {
        try fields.checkInterval()
        try check(valence: valence, labels: labels, associations: associations)
        return HKStateOfMind(kind: kind, valence: valence, labels: labels, associations: associations, fields: fields)
    }

    /// MIND-1: a valence within −1…+1; labels and associations each once.
    package static func check(valence: Double, labels: [Label], associations: [Association]) throws(HKError) {
        guard valence.isFinite, (-1...1).contains(valence) else {
            throw .invalid("MIND-1", "a state of mind's valence must be within -1…+1")
        }
        guard Set(labels).count == labels.count, Set(associations).count == associations.count else {
            throw .invalid("MIND-1", "a state of mind lists a label or an association twice")
        }
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        HKStateOfMind(kind: kind, valence: valence, labels: labels, associations: associations, fields: fields)
    }
}
