import Anchorage
import AnchorageService

/// Prints pages of changes in a ``DataFormat``: ndjson and json in the
/// change feed's one wire form (``FeedEncoding``, as `GET /v1/changes`
/// writes them), csv and table as rows.
struct ChangePrinter {
    let format: DataFormat
    let output: CLIOutput
    private var headerWritten = false
    private var anchor: HKQueryAnchor?
    private var encoding = FeedEncoding()

    init(format: DataFormat, output: CLIOutput) {
        self.format = format
        self.output = output
    }

    /// Prints a page: its lines (ndjson), the page as one document (json),
    /// or its rows (csv, table).
    mutating func print(_ page: ChangeFeedPage) throws {
        anchor = page.newAnchor
        switch format {
        case .ndjson:
            output.write(Array(try encoding.linesText(page.changes).utf8))
        case .json:
            output.line(try encoding.pageText(page.changes, hasMore: page.hasMore))
        case .csv, .table:
            let result = page.changes
            let rows =
                result.addedSamples.map(SampleRow.init(added:)) + result.deletedObjects.map(SampleRow.init(deleted:))
                + result.activitySummaries.map(SampleRow.init(summary:))
            guard !rows.isEmpty else { return }
            SampleRow.write(rows, format: format, header: !headerWritten, changes: true, to: output)
            headerWritten = true
        }
    }

    /// Ends the output: for csv and table, the anchor to resume from, on
    /// standard error.
    func finish() {
        guard let anchor, format == .csv || format == .table else { return }
        output.status("resume with --since \(anchor.stringValue)\n")
    }
}
