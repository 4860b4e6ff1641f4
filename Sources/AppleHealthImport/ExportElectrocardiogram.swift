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

    /// The recording in `bytes`.
    static func parse(_ bytes: [UInt8]) -> Outcome {
        // BOM, then lines (CRLF or LF).
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        var header: [(name: String, value: String)] = []
        var index = 0
        // The first block: name,value lines up to a blank line.
        while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).isEmpty {
            header.append(split(lines[index]))
            index += 1
        }
        while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces).isEmpty { index += 1 }
        // The second block: Lead, Unit (by position), then the voltages.
        var unitText = ""
        var secondBlock: [(name: String, value: String)] = []
        while index < lines.count, secondBlock.count < 2, Double(field(lines[index])) == nil {
            let line = lines[index]
            if !line.trimmingCharacters(in: .whitespaces).isEmpty { secondBlock.append(split(line)) }
            index += 1
        }
        if secondBlock.count == 2 { unitText = secondBlock[1].value }
        let scale: Double
        switch unitText.trimmingCharacters(in: .whitespaces) {
        case "µV", "μV", "uV": scale = 1e-6
        case "mV": scale = 1e-3
        case "V": scale = 1
        default: return .rejected("an electrocardiogram file whose voltage unit is not understood (ECG-1)")
        }
        var volts: [Double] = []
        while index < lines.count {
            let value = field(lines[index])
            index += 1
            if value.isEmpty { continue }
            guard let number = Double(value), number.isFinite else {
                return .rejected("an electrocardiogram file with a voltage that is not a number (ECG-1)")
            }
            guard volts.count < HKElectrocardiogram.maximumMeasurements else {
                return .rejected("an electrocardiogram file with too many voltages (ECG-1)")
            }
            volts.append(number * scale)
        }
        // Header values by position: 2 Recorded Date, 3 Classification,
        // 4 Symptoms, 5 Software Version, 6 Device, 7 Sample Rate.
        func value(_ position: Int) -> String? { position < header.count ? header[position].value : nil }
        guard let recorded = value(2).flatMap(ExportDate.parse) else {
            return .rejected("an electrocardiogram file without a readable recording date (ECG-1)")
        }
        guard let rateText = value(7), let rate = Double(rateText.prefix { $0.isNumber || $0 == "." }), rate > 0
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

    /// `name,value`, the value unquoted (`Device,"Watch6,7"`).
    private static func split(_ line: Substring) -> (name: String, value: String) {
        guard let comma = line.firstIndex(of: ",") else { return (String(line), "") }
        var value = String(line[line.index(after: comma)...]).trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
        }
        return (String(line[..<comma]), value)
    }

    /// A voltage line's first field, trimmed.
    private static func field(_ line: Substring) -> String {
        String(line.prefix { $0 != "," }).trimmingCharacters(in: .whitespaces)
    }

    /// A uuid from the file's bytes, time-prefixed with its recording date.
    private static func identifier(_ bytes: [UInt8], recorded: Date) -> UUID {
        var digest = Array(SHA256.hash(data: bytes))
        let milliseconds = UInt64(max(0, min(recorded.timeIntervalSince1970 * 1_000, Double(UInt64(1) << 47))))
        for index in 0..<6 { digest[index] = UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * UInt64(index))) }
        digest[6] = (digest[6] & 0x0F) | 0x80
        digest[8] = (digest[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7], digest[8],
                digest[9], digest[10], digest[11], digest[12], digest[13], digest[14], digest[15]
            )
        )
    }
}
