import Anchorage
import ArgumentParser
import Foundation

/// `anchorage samples`: the samples of a type in a date range, as JSON lines.
struct SamplesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples",
        abstract: "Samples of a type, oldest first, as JSON lines (the JSON form of docs/json-format.md)."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "A sample type: stepCount, sleepAnalysis, workout…")
    var type: String

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

    @Option(help: "ndjson (default), json, csv or table.")
    var format: DataFormat = .ndjson

    func validate() throws {
        _ = try SampleTypeArgument.require(type)
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if let tz, TimeZone(identifier: tz) == nil { throw ValidationError("unknown time zone '\(tz)'") }
        let zone = tz.flatMap(TimeZone.init(identifier:)) ?? .current
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, DateArgument.parse(value, in: zone) == nil { throw ValidationError("\(name) is not a date") }
        }
    }

    func run() async throws {
        let sampleType = try SampleTypeArgument.require(type)
        let zone = tz.flatMap(TimeZone.init(identifier:)) ?? .current
        let start = from.flatMap { DateArgument.parse($0, in: zone) }
        let end = to.flatMap { DateArgument.parse($0, in: zone) }
        let predicate =
            start == nil && end == nil ? nil : HKQuery.predicateForSamples(withStart: start, end: end, options: [])
        let store = try await storeOptions.openStoreForReading()
        let samples: [HKSample]
        do {
            samples = try await HKSampleQueryDescriptor(
                predicates: [.sample(type: sampleType, predicate: predicate)],
                sortDescriptors: [SortDescriptor(\.startDate, order: newestFirst ? .reverse : .forward)],
                limit: limit
            ).result(for: store)
        } catch {
            await store.close()
            throw CommandFailure(description: "the query failed: \(ErrorWords.describe(error))")
        }
        await store.close()
        let output = CLIOutput.current
        var writer = HealthObjectWriter()
        switch format {
        case .ndjson:
            for sample in samples { output.line(try writer.json(sample)) }
        case .json:
            let objects = try samples.map { try writer.json($0) }
            output.line("{\"samples\":[" + objects.joined(separator: ",") + "]}")
        case .csv, .table:
            SampleRow.write(
                samples.map(SampleRow.init(added:)),
                format: format,
                header: true,
                changes: false,
                to: output
            )
        }
    }
}
