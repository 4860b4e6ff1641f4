import Anchorage
import AnchorageService
import ArgumentParser
import Foundation

/// `anchorage activity --from DAY --to DAY`: the daily activity summaries.
struct ActivityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "The daily activity summaries (Move, Exercise and Stand rings) of a range of days.",
        discussion: "Energy is shown in the unit it was saved in (kcal or kJ), times in minutes."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "The first day, such as 2026-01-01.")
    var from: String

    @Option(help: "The last day, included.")
    var to: String

    @OptionGroup var formatOption: TableFormatOption

    private static let calendar = Calendar(identifier: .gregorian)
    private static let utc = TimeZone(identifier: "UTC")!

    func validate() throws {
        for (name, text) in [("--from", from), ("--to", to)]
        where TextForms.day(text, calendar: Self.calendar) == nil {
            throw ValidationError("\(name) must be a day such as 2026-01-31")
        }
    }

    func run() async throws {
        guard let first = TextForms.day(from, calendar: Self.calendar),
            let last = TextForms.day(to, calendar: Self.calendar)
        else { throw ValidationError("--from and --to must be days such as 2026-01-31") }
        let summaries = try await storeOptions.withStoreForReading(failure: "the query failed", recordsReads: true) {
            store in
            let summaries = try await HKActivitySummaryQueryDescriptor(
                predicate: HKQuery.predicate(forActivitySummariesBetweenStart: first, end: last)
            ).result(for: store)
            try await store.recordRead(
                AccessRecord(
                    principal: "",
                    action: "anchorage activity",
                    types: [HKObjectType.activitySummaryType().identifier],
                    from: TextForms.date(from, in: Self.utc),
                    to: TextForms.date(to, in: Self.utc),
                    count: summaries.count
                )
            )
            return summaries
        }
        write(summaries, to: CLIOutput.current)
    }

    /// The columns: each summary's day, then its values and goals, each
    /// number written by `number` (rounded in tables, in full in CSV).
    static let columns: [(name: String, value: @Sendable (HKActivitySummary, (Double) -> String) -> String)] = [
        ("date", { summary, _ in day(summary) }),
        ("energy", { $1(energy($0.activeEnergyBurned)) }),
        ("energy goal", { $1(energy($0.activeEnergyBurnedGoal)) }),
        ("energy unit", { summary, _ in summary.activeEnergyBurned.unit.unitString }),
        ("exercise min", { $1(minutes($0.appleExerciseTime)) }),
        ("exercise goal", { $1(minutes($0.appleExerciseTimeGoal)) }),
        ("move min", { $1(minutes($0.appleMoveTime)) }), ("move goal", { $1(minutes($0.appleMoveTimeGoal)) }),
        ("stand h", { $1($0.appleStandHours.doubleValue(for: .count())) }),
        ("stand goal", { $1($0.appleStandHoursGoal.doubleValue(for: .count())) }),
    ]

    static func day(_ summary: HKActivitySummary) -> String {
        let parts = summary.dateComponents(for: calendar)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    static func energy(_ quantity: HKQuantity) -> Double {
        quantity.doubleValue(for: quantity.unit)
    }

    static func minutes(_ quantity: HKQuantity) -> Double {
        quantity.doubleValue(for: .minute())
    }

    private func write(_ summaries: [HKActivitySummary], to output: CLIOutput) {
        switch formatOption.format {
        case .json:
            let encoder = CanonicalJSON.encoder()
            output.line(String(decoding: (try? encoder.encode(summaries)) ?? Data("[]".utf8), as: UTF8.self))
        case .csv:
            output.line(Self.columns.map { $0.name.replacingOccurrences(of: " ", with: "_") }.joined(separator: ","))
            for summary in summaries {
                output.line(Self.columns.map { $0.value(summary, NumberText.exact) }.joined(separator: ","))
            }
        case .table:
            let rows =
                [Self.columns.map(\.name)]
                + summaries.map { summary in
                    Self.columns.map { $0.value(summary, NumberText.readable) }
                }
            for line in TextTable.lines(rows) { output.line(line) }
        }
    }
}
