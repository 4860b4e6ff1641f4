import Anchorage
import AnchorageService
import ArgumentParser
import Foundation

/// `anchorage stats`: a statistics collection query, as a table, JSON or CSV.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Statistics per interval: steps per day, heart rate per hour…",
        discussion: """
            Example: anchorage stats --type stepCount --options sum --interval 1d \\
                       --from 2024-06-01 --to 2024-06-07 --tz Europe/Paris
            Buckets start at the anchor (default: midnight of --from) and tile time in the zone's calendar.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "The quantity type: stepCount, heartRate… (or its full HKQuantityTypeIdentifier).")
    var type: String

    @Option(help: "Comma-separated: sum, average, min, max, mostRecent, duration.")
    var options: String = "sum"

    @Option(help: "The length of a bucket: 15m, 1h, 1d, 7d, 1mo, 1y…")
    var interval: String = "1d"

    @Option(help: "The first day or instant shown (YYYY-MM-DD or ISO 8601).")
    var from: String

    @Option(help: "The last day or instant shown.")
    var to: String

    @Option(help: "The start of one bucket (default: the start of --from).")
    var anchor: String?

    @Option(help: "The time zone of the buckets (default: this machine's).")
    var tz: String?

    @Option(
        help:
            "The unit of the values (default: a unit people read: count/min, kg, km, kcal; else the type's canonical unit)."
    )
    var unit: String?

    @OptionGroup var formatOption: TableFormatOption

    @Flag(help: "Also each source's own values in every bucket, beside the merged ones (separateBySource).")
    var bySource = false

    @Option(help: "Only the samples of this app or device, by bundle identifier (repeatable).")
    var source: [String] = []

    @Flag(help: "Draw the first statistic as a bar chart.")
    var chart = false

    func validate() throws {
        _ = try parsedRequest()
        if chart && formatOption.format != .table {
            throw ValidationError(
                "--chart draws a table; leave out --format \(formatOption.format.rawValue) or --chart"
            )
        }
    }

    func run() async throws {
        let request = try parsedRequest()
        let table = try await storeOptions.withStoreForReading(failure: "the query failed", recordsReads: true) {
            store in
            let table: StatisticsTable
            let buckets: Int
            do {
                table = try request.table(from: store)
                buckets = try request.checkedBucketCount(in: store)
            } catch let error as StatisticsRequestError {
                throw ValidationError(error.message)
            }
            try await store.recordRead(
                AccessRecord(
                    principal: "",
                    action: "anchorage stats",
                    types: [request.type.identifier],
                    from: request.start,
                    to: request.end,
                    count: buckets
                )
            )
            return table
        }
        let output = CLIOutput.current
        if chart {
            for line in table.chart() { output.line(line) }
            return
        }
        switch formatOption.format {
        case .table: for line in table.textTable() { output.line(line) }
        case .csv: for line in table.csv() { output.line(line) }
        case .json: output.line(table.commandLineJSON())
        }
    }

    /// The request the options describe, its mistakes usage errors in the
    /// words the HTTP API uses too.
    private func parsedRequest() throws -> StatisticsRequest {
        let arguments = StatisticsRequest.Arguments(
            type: type,
            options: options,
            interval: interval,
            from: from,
            to: to,
            anchor: anchor,
            tz: tz,
            unit: unit,
            bySource: bySource,
            sources: source
        )
        do {
            return try StatisticsRequest(arguments: arguments)
        } catch {
            throw ValidationError(error.message)
        }
    }
}
