import Anchorage
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
        _ = try parsedOptions()
        _ = try parsedInterval()
        _ = try parsedRange(in: TimeZoneArgument.require(tz))
        if chart && formatOption.format != .table {
            throw ValidationError(
                "--chart draws a table; leave out --format \(formatOption.format.rawValue) or --chart"
            )
        }
    }

    func run() async throws {
        let zone = try TimeZoneArgument.require(tz)
        let quantityType = try parsedType()
        var statisticsOptions = try parsedOptions()
        if bySource { statisticsOptions.insert(.separateBySource) }
        let sourcePredicate =
            source.isEmpty
            ? nil : HKQuery.predicateForObjects(from: Set(source.map { HKSource(name: $0, bundleIdentifier: $0) }))
        var components = try parsedInterval()
        components.timeZone = zone
        let (start, end) = try parsedRange(in: zone)
        let anchorDate = try anchor.map { try DateArgument.require($0, for: "--anchor", in: zone) } ?? start
        let displayUnit: HKUnit
        do {
            displayUnit =
                try unit.map { try TextForms.unit($0, for: quantityType) } ?? TextForms.displayUnit(of: quantityType)
        } catch {
            throw ValidationError("--unit: \(error)")
        }
        let collection = try await storeOptions.withStoreForReading(failure: "the query failed") { store in
            try await HKStatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: quantityType, predicate: sourcePredicate),
                options: statisticsOptions,
                anchorDate: anchorDate,
                intervalComponents: components
            ).result(for: store, from: start, to: end)
        }
        var rows: [StatsRow] = []
        collection.enumerateStatistics(from: start, to: end) { statistics, _ in
            rows.append(StatsRow(statistics, options: statisticsOptions, unit: displayUnit))
        }
        if chart {
            StatsRow.chart(rows, unit: displayUnit.unitString, zone: zone, to: CLIOutput.current)
        } else {
            StatsRow.write(
                rows,
                format: formatOption.format,
                unit: displayUnit.unitString,
                zone: zone,
                to: CLIOutput.current
            )
        }
    }

    // MARK: Parsing

    /// `--from` through `--to` in `zone`; as over HTTP, `--from` after
    /// `--to` is a mistake, not an empty answer.
    private func parsedRange(in zone: TimeZone) throws -> (start: Date, end: Date) {
        guard let start = DateArgument.parse(from, in: zone), let end = DateArgument.parse(to, in: zone) else {
            throw ValidationError("--from and --to must be dates such as 2024-06-01 or 2024-06-01T08:00:00Z")
        }
        guard start <= end else { throw ValidationError("--from is after --to") }
        return (start, end)
    }

    private func parsedType() throws -> HKQuantityType {
        do {
            return try TextForms.quantityType(type)
        } catch {
            throw ValidationError("--type: \(error)")
        }
    }

    private func parsedOptions() throws -> HKStatisticsOptions {
        do {
            return try TextForms.statisticsOptions(options)
        } catch {
            throw ValidationError("--options: \(error)")
        }
    }

    private func parsedInterval() throws -> DateComponents {
        do {
            return try TextForms.interval(interval)
        } catch {
            throw ValidationError("--interval: \(error)")
        }
    }
}
