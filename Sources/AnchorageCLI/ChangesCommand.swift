import Anchorage
import ArgumentParser
import Foundation

/// `anchorage changes`: everything saved or deleted since an anchor, as
/// JSON lines, optionally following the store live.
struct ChangesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Samples saved and deleted since an anchor, as JSON lines.",
        discussion: """
            Each line is {"added": <sample>}, {"deleted": "<uuid>"}, {"activitySummary": <the day's summary now>} \
            or, after each page, {"anchor": "<anchor>"}: pass the last anchor to --since to resume where you stopped. With --follow, keeps printing changes as
            they are committed until interrupted.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(
        name: .customLong("type"),
        help: "A sample type, or activitySummary (repeat for several): stepCount, sleepAnalysis, workout…"
    )
    var types: [String]

    @Option(help: "Start after this anchor (default: the beginning).")
    var since: String?

    @Option(parsing: .unconditional, help: "At most this many changes (default: all).")
    var limit: Int?

    @Flag(help: "Keep running and print new changes as they are committed.")
    var follow = false

    @OptionGroup var formatOption: DataFormatOption

    func validate() throws {
        guard !types.isEmpty else { throw ValidationError("name at least one --type") }
        for type in types where !TextForms.isActivitySummary(type) { _ = try SampleTypeArgument.require(type) }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if follow && limit != nil { throw ValidationError("--follow reads everything; leave out --limit") }
        if follow && formatOption.format == .json {
            throw ValidationError("--follow prints as it goes: use ndjson, csv or table")
        }
        if let since { _ = try AnchorArgument.require(since, for: "--since") }
    }

    func run() async throws {
        let predicates = try types.filter { !TextForms.isActivitySummary($0) }
            .map { HKSamplePredicate<HKSample>.sample(type: try SampleTypeArgument.require($0)) }
        let summaries = types.contains { TextForms.isActivitySummary($0) }
        let output = CLIOutput.current
        try await storeOptions.withStoreForReading(failure: "reading changes failed") { store in
            var anchor = try since.map { try AnchorArgument.require($0, for: "--since") }
            var remaining = limit
            var printer = ChangePrinter(format: formatOption.format, output: output)
            while true {
                let page = min(remaining ?? 1_000, 1_000)
                let result = try await ChangeFeedDescriptor(
                    predicates: predicates,
                    activitySummaries: summaries,
                    anchor: anchor,
                    limit: page
                )
                .result(for: store)
                try printer.print(result)
                anchor = result.newAnchor
                let count = result.count
                remaining = remaining.map { $0 - count }
                if count < page || remaining == 0 { break }
            }
            if follow {
                let feed = ChangeFeedDescriptor(predicates: predicates, activitySummaries: summaries, anchor: anchor)
                for try await update in feed.results(for: store) {
                    // The stream starts with what is new since the anchor: often nothing.
                    if update.count == 0 { continue }
                    try printer.print(update)
                }
            }
            try printer.finish()
        }
    }
}

extension HealthObjectWriter {
    /// The object's JSON form as text.
    mutating func json(_ object: HKObject) throws -> String {
        var bytes: [UInt8] = []
        try append(object, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Prints pages of changes in a ``DataFormat``.
struct ChangePrinter {
    let format: DataFormat
    let output: CLIOutput
    private var headerWritten = false
    private var added: [String] = []
    private var deleted: [String] = []
    private var summaries: [String] = []
    private let summaryEncoder: JSONEncoder = CanonicalJSON.encoder()
    private var anchor: HKQueryAnchor?
    private var writer = HealthObjectWriter()

    init(format: DataFormat, output: CLIOutput) {
        self.format = format
        self.output = output
    }

    mutating func print(_ result: ChangeFeedDescriptor.Result) throws {
        anchor = result.newAnchor
        switch format {
        case .ndjson:
            for sample in result.addedSamples {
                output.line("{\"added\":\(try writer.json(sample))}")
            }
            for deleted in result.deletedObjects {
                output.line("{\"deleted\":\"\(deleted.uuid.uuidString)\"}")
            }
            for summary in result.activitySummaries {
                output.line("{\"activitySummary\":\(try json(summary))}")
            }
            output.line("{\"anchor\":\"\(result.newAnchor.stringValue)\"}")
        case .json:
            for sample in result.addedSamples {
                added.append(try writer.json(sample))
            }
            deleted += result.deletedObjects.map { "\"\($0.uuid.uuidString)\"" }
            summaries += try result.activitySummaries.map(json)
        case .csv, .table:
            let rows =
                result.addedSamples.map(SampleRow.init(added:)) + result.deletedObjects.map(SampleRow.init(deleted:))
                + result.activitySummaries.map(SampleRow.init(summary:))
            guard !rows.isEmpty else { return }
            SampleRow.write(rows, format: format, header: !headerWritten, changes: true, to: output)
            headerWritten = true
        }
    }

    private func json(_ summary: HKActivitySummary) throws -> String {
        String(decoding: try summaryEncoder.encode(summary), as: UTF8.self)
    }

    /// Ends the output: the JSON document, or (for csv and table) the
    /// anchor to resume from, on standard error.
    func finish() throws {
        guard let anchor else { return }
        switch format {
        case .ndjson:
            break
        case .json:
            output.line(
                "{\"added\":[\(added.joined(separator: ","))],\"deleted\":[\(deleted.joined(separator: ","))],"
                    + "\"activitySummaries\":[\(summaries.joined(separator: ","))],\"newAnchor\":\"\(anchor.stringValue)\"}"
            )
        case .csv, .table:
            output.status("resume with --since \(anchor.stringValue)\n")
        }
    }
}
