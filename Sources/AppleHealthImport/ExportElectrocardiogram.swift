import Anchorage
import Crypto
import Foundation

/// An `electrocardiograms/ecg_….csv` file of the export as an
/// ``HKElectrocardiogram``.
///
/// The file is a header of `name,value` lines — Name, Date of Birth,
/// Recorded Date, Classification, Symptoms, Software Version, Device,
/// Sample Rate — then blank lines, `Lead`, `Unit`, and one voltage per line.
/// The names are in the phone's language, so the header is read by
/// position, each value checked by its shape (a date, `512 hertz`, `µV`);
/// English classifications are mapped, others are kept as `unrecognized`.
/// The person's name and date of birth are never read.
enum ExportElectrocardiogram {
    /// What a file gave.
    enum Outcome {
        case electrocardiogram(HKElectrocardiogram)
        case rejected(String)
    }

    /// The recording in `bytes`. Read as bytes, line by line: a recording
    /// has 15,000 voltage lines, and no string is made for them.
    static func parse(_ bytes: [UInt8]) -> Outcome {
        var lines = Lines(bytes: bytes)
        // The first block: name,value lines up to a blank line.
        var header: [(name: String, value: String)] = []
        while let line = lines.next(), !isBlank(line) {
            guard header.count < 64 else { break }
            header.append(split(line))
        }
        // The second block, after blank lines: Lead and Unit (by position),
        // then the voltages.
        var secondBlock: [(name: String, value: String)] = []
        var pending: ArraySlice<UInt8>?
        while let line = lines.next() {
            if isBlank(line) { continue }
            if secondBlock.count == 2 || ExportNumber.parse(firstField(line)) != nil {
                pending = line
                break
            }
            secondBlock.append(split(line))
        }
        let unitText = secondBlock.count == 2 ? secondBlock[1].value : ""
        let scale: Double
        switch unitText.trimmingCharacters(in: .whitespaces) {
        case "µV", "μV", "uV": scale = 1e-6
        case "mV": scale = 1e-3
        case "V": scale = 1
        default: return .rejected("an electrocardiogram file whose voltage unit is not understood (ECG-1)")
        }
        var volts: [Double] = []
        volts.reserveCapacity(16_384)
        var line = pending
        while let current = line {
            let field = firstField(current)
            if !field.isEmpty {
                guard let number = ExportNumber.parse(field), number.isFinite else {
                    return .rejected("an electrocardiogram file with a voltage that is not a number (ECG-1)")
                }
                guard volts.count < HKElectrocardiogram.maximumMeasurements else {
                    return .rejected("an electrocardiogram file with too many voltages (ECG-1)")
                }
                volts.append(number * scale)
            }
            line = lines.next()
        }
        // Header values by position: 2 Recorded Date, 3 Classification,
        // 4 Symptoms, 5 Software Version, 6 Device, 7 Sample Rate.
        func value(_ position: Int) -> String? { position < header.count ? header[position].value : nil }
        guard let recorded = value(2).flatMap(ExportDate.parse) else {
            return .rejected("an electrocardiogram file without a readable recording date (ECG-1)")
        }
        guard let rateText = value(7), let rate = Self.rate(rateText), rate.isFinite, rate > 0
        else {
            return .rejected("an electrocardiogram file without a readable sample rate (ECG-1)")
        }
        let symptoms = value(4).map { $0.trimmingCharacters(in: .whitespaces) }
        let device = HKDevice(
            name: "Apple Watch",
            manufacturer: "Apple Inc.",
            model: value(6).map { String($0.prefix(200)) },
            hardwareVersion: nil,
            firmwareVersion: nil,
            softwareVersion: value(5).map { String($0.prefix(200)) },
            localIdentifier: nil,
            udiDeviceIdentifier: nil
        )
        let source = HKSourceRevision(
            source: HKSource(name: "ECG", bundleIdentifier: ExportObjects.bundleIdentifier(forSourceName: "ECG")),
            version: value(5).map { String($0.prefix(200)) }
        )
        do {
            return .electrocardiogram(
                try HKElectrocardiogram.stored(
                    start: recorded,
                    end: recorded.addingTimeInterval(Double(volts.count) / rate),
                    classification: classification(value(3) ?? ""),
                    symptomsStatus: symptoms == nil ? .notSet : symptoms!.isEmpty ? .none : .present,
                    averageHeartRate: nil,
                    samplingFrequency: HKQuantity(unit: .hertz(), doubleValue: rate),
                    voltages: [.appleWatchSimilarToLeadI: volts],
                    uuid: identifier(bytes, recorded: recorded),
                    sourceRevision: source,
                    device: device
                )
            )
        } catch {
            return .rejected(ExportObjects.reason(error))
        }
    }

    /// The classification an English label names; others (other languages,
    /// labels newer than these) are `unrecognized`, an empty one `notSet`.
    static func classification(_ label: String) -> HKElectrocardiogram.Classification {
        let text = label.trimmingCharacters(in: .whitespaces).lowercased()
        if text.isEmpty { return .notSet }
        if text.contains("sinus rhythm") { return .sinusRhythm }
        if text.contains("atrial fibrillation") { return .atrialFibrillation }
        if text.contains("poor recording") { return .inconclusivePoorReading }
        if text.contains("heart rate over") || text.contains("high heart rate") { return .inconclusiveHighHeartRate }
        if text.contains("heart rate under") || text.contains("low heart rate") { return .inconclusiveLowHeartRate }
        if text.contains("inconclusive") { return .inconclusiveOther }
        return .unrecognized
    }

    /// The lines of a file: LF or CRLF, a byte order mark skipped.
    struct Lines {
        let bytes: [UInt8]
        var offset = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
        }

        mutating func next() -> ArraySlice<UInt8>? {
            guard offset < bytes.count else { return nil }
            var end = offset
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            var line = bytes[offset..<end]
            if line.last == 0x0D { line = line.dropLast() }
            offset = end + 1
            return line
        }
    }

    private static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x2C }
    }

    /// `name,value`, the value unquoted (`Device,"Watch6,7"`).
    private static func split(_ line: ArraySlice<UInt8>) -> (name: String, value: String) {
        let text = String(decoding: line.prefix(1_000), as: UTF8.self)
        guard let comma = text.firstIndex(of: ",") else { return (text, "") }
        var value = String(text[text.index(after: comma)...]).trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
        }
        return (String(text[..<comma]), value)
    }

    /// A voltage line's first field, without the spaces around it. A line
    /// that is digits, one comma and digits (`94,151`: phones set to a
    /// language with decimal commas write voltages so, unquoted) is one
    /// number with a decimal comma, the comma made a point.
    private static func firstField(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        if let comma = line.firstIndex(of: 0x2C), isDigits(line[line.startIndex..<comma], signed: true),
            isDigits(line[(comma + 1)...], signed: false)
        {
            var decimal = line
            decimal[comma] = 0x2E
            return decimal
        }
        var field = line.prefix { $0 != 0x2C }
        while let first = field.first, first == 0x20 || first == 0x09 { field = field.dropFirst() }
        while let last = field.last, last == 0x20 || last == 0x09 { field = field.dropLast() }
        return field
    }

    private static func isDigits(_ bytes: ArraySlice<UInt8>, signed: Bool) -> Bool {
        var digits = bytes
        if signed, digits.first == 0x2D { digits = digits.dropFirst() }
        return !digits.isEmpty && digits.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// A sample rate as the header writes it, in any language: a number
    /// with a decimal point or comma, then a word (`512 hertz`, `511,562
    /// Hertz`, `512ヘルツ`).
    static func rate(_ text: String) -> Double? {
        let number = text.trimmingCharacters(in: .whitespaces).prefix {
            $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",")
        }
        return Double(number.replacingOccurrences(of: ",", with: "."))
    }

    /// A uuid from the file's bytes, time-prefixed with its recording date.
    private static func identifier(_ bytes: [UInt8], recorded: Date) -> UUID {
        ExportObjects.versionEight(Array(SHA256.hash(data: bytes)), at: recorded)
    }
}
