import Anchorage
import AnchorageService
import ArgumentParser
import Foundation

/// `anchorage samples`: the samples of a type in a date range, as JSON lines.
struct SamplesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples",
        abstract: "Samples of a type, oldest first, as JSON lines (the JSON form of docs/json-format.md)."
    )

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var typeOption: SampleTypeOption

    @Option(help: "Only samples overlapping from this day or instant on (YYYY-MM-DD or ISO 8601).")
    var from: String?

    @Option(help: "Only samples starting before this day or instant.")
    var to: String?

    @Option(help: "The time zone of day-only dates (default: this machine's).")
    var tz: String?

    @Option(parsing: .unconditional, help: "At most this many samples.")
    var limit: Int?

    @Flag(help: "Newest first.")
    var newestFirst = false

    @OptionGroup var formatOption: DataFormatOption

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        _ = try parsedRange()
    }

    func run() async throws {
        let sampleType = try typeOption.sampleType()
        let (start, end) = try parsedRange()
        let predicate =
            start == nil && end == nil ? nil : HKQuery.predicateForSamples(withStart: start, end: end, options: [])
        let samples = try await storeOptions.withStoreForReading(failure: "the query failed", recordsReads: true) {
            store in
            let samples = try await HKSampleQueryDescriptor(
                predicates: [.sample(type: sampleType, predicate: predicate)],
                sortDescriptors: [SortDescriptor(\.startDate, order: newestFirst ? .reverse : .forward)],
                limit: limit
            ).result(for: store)
            try await store.recordRead(
                AccessRecord(
                    principal: "",
                    action: "anchorage samples",
                    types: [sampleType.identifier],
                    from: start,
                    to: end,
                    count: samples.count
                )
            )
            return samples
        }
        let output = CLIOutput.current
        var writer = HealthObjectWriter()
        switch formatOption.format {
        case .ndjson:
            for sample in samples { output.line(try writer.json(sample)) }
        case .json:
            let objects = try samples.map { try writer.json($0) }
            output.line("{\"samples\":[" + objects.joined(separator: ",") + "]}")
        case .csv, .table:
            SampleRow.write(
                samples.map(SampleRow.init(added:)),
                format: formatOption.format,
                header: true,
                changes: false,
                to: output
            )
        }
    }

    /// `--from` and `--to` in the zone of `--tz`; `nil` where not given.
    private func parsedRange() throws -> (start: Date?, end: Date?) {
        let zone = try TimeZoneArgument.require(tz)
        return (
            try from.map { try DateArgument.require($0, for: "--from", in: zone) },
            try to.map { try DateArgument.require($0, for: "--to", in: zone) }
        )
    }
}
