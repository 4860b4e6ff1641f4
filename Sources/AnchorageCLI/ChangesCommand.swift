import Anchorage
import AnchorageService
import ArgumentParser
import Foundation

/// `anchorage changes`: everything saved or deleted since an anchor, as
/// JSON lines, optionally following the store live.
struct ChangesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Samples saved and deleted since an anchor, as JSON lines.",
        discussion: """
            Each line is {"added": <sample>}, {"deleted": {"uuid": "<uuid>"}}, {"activitySummary": <the day's summary \
            now>} or, after each page, {"anchor": "<anchor>"}: the lines of GET /v1/changes?stream=ndjson. Pass the \
            last anchor to --since to resume where you stopped. With --follow, keeps printing changes as they are \
            committed until interrupted.
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
        let since = try since.map { try AnchorArgument.require($0, for: "--since") }
        try await storeOptions.withStoreForReading(failure: "reading changes failed", recordsReads: true) { store in
            var session = try ChangeFeedSession(
                store: store,
                predicates: predicates,
                activitySummaries: summaries,
                since: since,
                pageSize: Self.pageSize
            )
            // Recorded as over HTTP: one page once; a stream when it opens,
            // then once per page, each before it is printed.
            let record = { (page: ChangeFeedPage?, phase: String?) in
                try await store.recordRead(
                    AccessRecord(
                        principal: "",
                        action: "anchorage changes",
                        types: predicates.map(\.sampleType.identifier)
                            + (summaries ? [HKObjectType.activitySummaryType().identifier] : []),
                        since: since?.stringValue,
                        until: page?.newAnchor.stringValue,
                        count: page?.count ?? 0,
                        phase: phase
                    )
                )
            }
            var printer = ChangePrinter(format: formatOption.format, output: output)
            if formatOption.format == .json {
                // One document, the page GET /v1/changes answers with this limit.
                let page = try await session.next(limit: limit)
                try await record(page, nil)
                try printer.print(page)
                return
            }
            try await record(nil, "start")
            var remaining = limit
            while true {
                let page = try await session.next(limit: min(remaining ?? Self.pageSize, Self.pageSize))
                try await record(page, "page")
                try printer.print(page)
                remaining = remaining.map { $0 - page.count }
                if !page.hasMore || remaining.map({ $0 <= 0 }) == true { break }
            }
            if follow {
                for try await update in try session.updates(heartbeat: nil) {
                    if case .page(let page) = update {
                        try await record(page, "page")
                        try printer.print(page)
                    }
                }
            }
            printer.finish()
        }
    }

    /// The most changes read at once.
    static let pageSize = 1_000
}

extension HealthObjectWriter {
    /// The object's JSON form as text.
    mutating func json(_ object: HKObject) throws -> String {
        var bytes: [UInt8] = []
        try append(object, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
