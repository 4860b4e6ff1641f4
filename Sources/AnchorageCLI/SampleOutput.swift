import Anchorage
import AnchorageService
import ArgumentParser
import Foundation

/// How `changes` and `samples` print data.
enum DataFormat: String, ExpressibleByArgument, CaseIterable {
    /// One JSON object per line (the default; docs/json-format.md).
    case ndjson
    /// One JSON document.
    case json
    /// Comma-separated values with a header line.
    case csv
    /// An aligned table for reading.
    case table
}

/// One sample (or deletion) as a row of `csv` and `table` output.
struct SampleRow {
    static let header = ["change", "uuid", "type", "start", "end", "value", "unit", "source"]

    let cells: [String]

    init(added sample: HKSample) {
        let value: (String, String)
        switch sample {
        case let quantity as HKQuantitySample:
            let unit = TextForms.displayUnit(of: quantity.quantityType)
            value = (NumberText.exact(try? quantity.quantity.checkedDoubleValue(for: unit)), unit.unitString)
        case let category as HKCategorySample:
            value = (String(category.value), "")
        case let workout as HKWorkout:
            value = (NumberText.exact(workout.duration), "s")
        case let correlation as HKCorrelation:
            value = (String(correlation.objects.count), "samples")
        case let dose as HKMedicationDoseEvent:
            value = (NumberText.exact(dose.doseQuantity), dose.unit.unitString)
        default:
            value = ("", "")
        }
        cells = [
            "added", sample.uuid.uuidString, Self.shortName(sample.sampleType.identifier),
            sample.startDate.formatted(.iso8601), sample.endDate.formatted(.iso8601), value.0, value.1,
            sample.sourceRevision.source.bundleIdentifier,
        ]
    }

    /// A day's activity summary: the day as its start, the energy burned
    /// as its value (`anchorage activity` shows every column).
    init(summary: HKActivitySummary) {
        cells = [
            "summary", "", "activitySummary", ActivityCommand.day(summary), "",
            NumberText.exact(ActivityCommand.energy(summary.activeEnergyBurned)),
            summary.activeEnergyBurned.unit.unitString, "",
        ]
    }

    init(deleted object: HKDeletedObject) {
        cells = ["deleted", object.uuid.uuidString, "", "", "", "", "", ""]
    }

    /// `HKQuantityTypeIdentifierStepCount` → `stepCount` (``TextForms/shortName(of:)``).
    static func shortName(_ identifier: String) -> String {
        TextForms.shortName(of: identifier)
    }

    /// Writes rows as CSV (quoting cells that need it) or as a table.
    /// Without `changes`, the first column (always "added") is left out.
    static func write(_ rows: [SampleRow], format: DataFormat, header: Bool, changes: Bool, to output: CLIOutput) {
        let drop = changes ? 0 : 1
        let names = Array(Self.header.dropFirst(drop))
        let cells = rows.map { Array($0.cells.dropFirst(drop)) }
        switch format {
        case .csv:
            if header { output.line(names.joined(separator: ",")) }
            for row in cells { output.line(row.map(csvCell).joined(separator: ",")) }
        case .table:
            for line in TextTable.leftAligned((header ? [names] : []) + cells) { output.line(line) }
        case .ndjson, .json:
            break
        }
    }

    private static func csvCell(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
