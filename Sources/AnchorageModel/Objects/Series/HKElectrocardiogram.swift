import Foundation

/// An electrocardiogram: voltages measured at a fixed frequency on one or
/// more leads, with the recording's classification, symptoms status and
/// average heart rate (ECG-1).
///
/// HealthKit lets apps only read electrocardiograms (an Apple Watch records
/// them); here importers, replicas and services make them with
/// ``stored(start:end:classification:symptomsStatus:averageHeartRate:samplingFrequency:voltages:uuid:sourceRevision:device:metadata:)``.
/// Read the voltages with `HKElectrocardiogramQuery`:
///
/// ```swift
/// let query = HKElectrocardiogramQuery(ecg) { _, result in
///     if case .measurement(let measurement) = result {
///         print(measurement.timeSinceSampleStart, measurement.quantity(for: .appleWatchSimilarToLeadI)!)
///     }
/// }
/// ```
public final class HKElectrocardiogram: HKSample, @unchecked Sendable {
    /// What the recording shows.
    public enum Classification: Int, Hashable, Sendable {
        case notSet = 0
        case sinusRhythm = 1
        case atrialFibrillation = 2
        case inconclusiveLowHeartRate = 3
        case inconclusiveHighHeartRate = 4
        case inconclusivePoorReading = 5
        case inconclusiveOther = 6
        case unrecognized = 100
    }

    /// Whether the person reported symptoms with the recording.
    public enum SymptomsStatus: Int, Hashable, Sendable {
        case notSet = 0
        case none = 1
        case present = 2
    }

    /// An electrode arrangement a voltage is measured on.
    public enum Lead: Int, Hashable, Sendable {
        /// The Apple Watch's lead, similar to a standard lead I.
        case appleWatchSimilarToLeadI = 1
    }

    /// One measurement: a voltage per lead at a time since the recording's start.
    public final class VoltageMeasurement: Hashable, @unchecked Sendable {
        // @unchecked: immutable after init.
        /// Seconds since the electrocardiogram's start.
        public let timeSinceSampleStart: TimeInterval
        /// The leads, shared by every measurement of a recording.
        private let leads: [Lead]
        /// The first lead's voltage, and the others' (empty for one lead:
        /// a measurement of the watch's single lead allocates nothing more).
        private let first: Double
        private let others: [Double]

        /// An empty measurement at the start, on no lead.
        public convenience init() {
            self.init(time: 0, leads: [], first: 0, others: [])
        }

        package init(time: TimeInterval, leads: [Lead], first: Double, others: [Double]) {
            self.timeSinceSampleStart = time
            self.leads = leads
            self.first = first
            self.others = others
        }

        /// The voltage on `lead`, in volts; `nil` when the recording has no such lead.
        public func quantity(for lead: Lead) -> HKQuantity? {
            guard let position = leads.firstIndex(of: lead) else { return nil }
            return HKQuantity(unit: Self.volt, doubleValue: position == 0 ? first : others[position - 1])
        }

        private static let volt = HKUnit.volt()

        public static func == (lhs: VoltageMeasurement, rhs: VoltageMeasurement) -> Bool {
            lhs.timeSinceSampleStart == rhs.timeSinceSampleStart && lhs.leads == rhs.leads && lhs.first == rhs.first
                && lhs.others == rhs.others
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(timeSinceSampleStart)
            hasher.combine(first)
        }
    }

    /// The most measurements one electrocardiogram may hold: about 34
    /// minutes at 512 Hz.
    public static let maximumMeasurements = 1_048_576

    /// How many measurements the recording holds.
    public let numberOfVoltageMeasurements: Int
    /// The measurements per second; `nil` for a recording without measurements.
    public let samplingFrequency: HKQuantity?
    /// What the recording shows.
    public let classification: Classification
    /// The average heart rate during the recording, if known.
    public let averageHeartRate: HKQuantity?
    /// Whether the person reported symptoms.
    public let symptomsStatus: SymptomsStatus
    /// The leads the voltages were measured on, in the order of each
    /// measurement's values.
    package let leads: [Lead]
    /// The voltages in volts, one double per lead per measurement, when this
    /// object carries them.
    package let points: SeriesPoints?

    /// The fields an electrocardiogram has besides the common ones.
    package struct Recording: Sendable {
        package var classification: Classification
        package var symptomsStatus: SymptomsStatus
        /// Beats per minute.
        package var averageHeartRate: Double?
        /// Hertz.
        package var samplingFrequency: Double?
        package var leads: [Lead]
        package var count: Int

        package init(
            classification: Classification,
            symptomsStatus: SymptomsStatus,
            averageHeartRate: Double?,
            samplingFrequency: Double?,
            leads: [Lead],
            count: Int
        ) {
            self.classification = classification
            self.symptomsStatus = symptomsStatus
            self.averageHeartRate = averageHeartRate
            self.samplingFrequency = samplingFrequency
            self.leads = leads
            self.count = count
        }
    }

    package override var seriesPoints: SeriesPoints? { points }
    package override var lacksSeriesPoints: Bool { points == nil }

    /// The sampling frequency in hertz, as stored.
    private let samplingHertz: Double?

    package init(_ recording: Recording, points: SeriesPoints?, fields: consuming SampleFields) {
        samplingHertz = recording.samplingFrequency
        numberOfVoltageMeasurements = recording.count
        samplingFrequency = recording.samplingFrequency.map { HKQuantity(unit: .hertz(), doubleValue: $0) }
        classification = recording.classification
        averageHeartRate = recording.averageHeartRate.map {
            HKQuantity(unit: HKUnit.count().unitDivided(by: .minute()), doubleValue: $0)
        }
        symptomsStatus = recording.symptomsStatus
        leads = recording.leads
        self.points = points
        super.init(sampleType: TypeCatalog.electrocardiogram, fields: fields)
    }

    /// The recording's fields, in the units the payload keeps.
    package var recording: Recording {
        Recording(
            classification: classification,
            symptomsStatus: symptomsStatus,
            averageHeartRate: averageHeartRate?.doubleValue(for: HKUnit.count().unitDivided(by: .minute())),
            samplingFrequency: samplingFrequency?.doubleValue(for: .hertz()),
            leads: leads,
            count: numberOfVoltageMeasurements
        )
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        HKElectrocardiogram(recording, points: points, fields: fields)
    }

    /// The one checked door every electrocardiogram with its voltages is
    /// built through (ECG-1).
    package static func make(
        _ recording: Recording,
        points: SeriesPoints,
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKElectrocardiogram {
        try fields.checkInterval()
        try check(recording)
        guard points.stride == 8 * max(1, recording.leads.count), points.count == recording.count else {
            throw .invalid("PAYLOAD-2", "an electrocardiogram's voltages do not match its leads and count")
        }
        for index in 0..<points.count {
            for lead in 0..<recording.leads.count where !points.double(index, field: lead).isFinite {
                throw .invalid("ECG-1", "voltage measurement \(index) is not a finite number")
            }
        }
        return HKElectrocardiogram(recording, points: points, fields: fields)
    }

    /// An electrocardiogram with every stored field given; `voltages` holds
    /// one array per lead, in volts, all of one length.
    ///
    /// ```swift
    /// let ecg = try HKElectrocardiogram.stored(
    ///     start: start, end: start.addingTimeInterval(30), classification: .sinusRhythm, symptomsStatus: .none,
    ///     averageHeartRate: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 64),
    ///     samplingFrequency: HKQuantity(unit: .hertz(), doubleValue: 512),
    ///     voltages: [.appleWatchSimilarToLeadI: microvolts.map { $0 / 1_000_000 }],
    ///     uuid: UUID(), sourceRevision: HKSourceRevision(source: watch, version: "10.1"))
    /// ```
    ///
    /// - Throws: ``HKError`` `ECG-1` for leads of different lengths, a
    ///   voltage that is not finite, a frequency that is not positive, a
    ///   heart rate out of range; the common fields' rules.
    public static func stored(
        start: Date,
        end: Date,
        classification: Classification,
        symptomsStatus: SymptomsStatus,
        averageHeartRate: HKQuantity?,
        samplingFrequency: HKQuantity?,
        voltages: [Lead: [Double]],
        uuid: UUID,
        sourceRevision: HKSourceRevision,
        device: HKDevice? = nil,
        metadata: [String: HKMetadataValue] = [:]
    ) throws(HKError) -> HKElectrocardiogram {
        let leads = voltages.keys.sorted { $0.rawValue < $1.rawValue }
        let count = voltages.values.first?.count ?? 0
        guard voltages.values.allSatisfy({ $0.count == count }) else {
            throw .invalid("ECG-1", "every lead of an electrocardiogram has as many voltages as the others")
        }
        let perMinute = HKUnit.count().unitDivided(by: .minute())
        if let averageHeartRate, !averageHeartRate.is(compatibleWith: perMinute) {
            throw .invalid("ECG-1", "an electrocardiogram's average heart rate is in beats per time")
        }
        if let samplingFrequency, !samplingFrequency.is(compatibleWith: .hertz()) {
            throw .invalid("ECG-1", "an electrocardiogram's sampling frequency is in hertz")
        }
        let recording = Recording(
            classification: classification,
            symptomsStatus: symptomsStatus,
            averageHeartRate: averageHeartRate?.doubleValue(for: perMinute),
            samplingFrequency: samplingFrequency?.doubleValue(for: .hertz()),
            leads: leads,
            count: count
        )
        let columns = leads.map { voltages[$0]! }
        let points = SeriesPoints(stride: 8 * max(1, leads.count), count: count) { writer, index in
            for column in columns { writer.double(column[index]) }
        }
        return try make(recording, points: points, .given(start, end, uuid, sourceRevision, device, metadata))
    }

    /// ECG-1: a known number of measurements within the limit, leads known
    /// and listed once, a positive finite frequency when there are
    /// measurements, an average heart rate within 0…300 bpm.
    package static func check(_ recording: Recording) throws(HKError) {
        guard recording.count >= 0, recording.count <= maximumMeasurements else {
            throw .invalid("ECG-1", "an electrocardiogram may hold at most \(maximumMeasurements) voltage measurements")
        }
        guard Set(recording.leads).count == recording.leads.count else {
            throw .invalid("ECG-1", "an electrocardiogram lists a lead twice")
        }
        if recording.count > 0 {
            guard !recording.leads.isEmpty else {
                throw .invalid("ECG-1", "an electrocardiogram with voltages names the leads they were measured on")
            }
            guard let frequency = recording.samplingFrequency, frequency.isFinite, frequency > 0 else {
                throw .invalid("ECG-1", "an electrocardiogram with voltages has a sampling frequency above 0 Hz")
            }
        }
        if let frequency = recording.samplingFrequency, !(frequency.isFinite && frequency > 0) {
            throw .invalid("ECG-1", "an electrocardiogram's sampling frequency must be above 0 Hz")
        }
        if let rate = recording.averageHeartRate, !(rate.isFinite && rate >= 0 && rate <= 300) {
            throw .invalid("ECG-1", "an electrocardiogram's average heart rate must be within 0…300 beats per minute")
        }
    }

    /// The measurement at `index` of `points`.
    package func measurement(_ points: SeriesPoints, at index: Int) -> VoltageMeasurement {
        VoltageMeasurement(
            time: Double(index) / hertz,
            leads: leads,
            first: leads.isEmpty ? 0 : points.double(index, field: 0),
            others: leads.count > 1 ? (1..<leads.count).map { points.double(index, field: $0) } : []
        )
    }

    /// The sampling frequency in hertz, 1 when there is none.
    private var hertz: Double { samplingHertz ?? 1 }
}
