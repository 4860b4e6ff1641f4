import Anchorage
import AnchorageLog
import AppleHealthImport
import ArgumentParser
import Foundation

/// `anchorage import <export.zip | folder | export.xml>`.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import the iPhone Health app's export: export.zip, its folder, or export.xml.",
        discussion: """
            Importing the same file again adds nothing. Prints a summary; progress goes to standard error. \
            A damaged file stops the import with the line and column (exit status 1); what was saved \
            stays, and importing again finishes it. Afterwards the store's files are rewritten without the \
            pages the import freed, when they are a tenth or more of a file.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "export.zip as the Health app made it, its apple_health_export folder, or export.xml.")
    var file: String

    func run() async throws {
        let output = CLIOutput.current
        // Each commit flushes its pages but not its meta page (one flush
        // instead of two): a machine that stops mid-import may undo the last
        // commit, which importing again restores; closing the store
        // flushes it whole.
        let summary = try await storeOptions.withStore(failure: "the import failed", durability: .noMetaSync) {
            store in
            defer { output.status("\n") }
            return try await HealthExportImporter(store: store).importExport(at: URL(fileURLWithPath: file)) {
                progress in
                guard let total = progress.totalBytes, total > 0 else { return }
                let percent = min(100, progress.bytesRead * 100 / total)
                let bar = String(repeating: "#", count: percent / 4).padding(toLength: 25, withPad: ".", startingAt: 0)
                output.status("\r[\(bar)] \(percent)%  \(progress.elements) elements")
            }
        }
        // The summary goes to standard output; a note on the files, to standard error.
        do {
            if try HealthExportImporter.compactStore(at: storeOptions.directory) {
                output.status("the store's files were rewritten without the pages the import freed\n")
            }
        } catch {
            output.status("the store's files were not compacted: \(ErrorWords.describe(error))\n")
        }
        output.line("saved: \(summary.saved)")
        output.line("already present: \(summary.alreadyPresent)")
        for (name, count) in summary.read.sorted(by: { $0.key < $1.key }) { output.line("read \(name): \(count)") }
        for (name, count) in summary.unknown.sorted(by: { $0.key < $1.key }) {
            output.line("not modelled, skipped: \(name): \(count)")
        }
        for (reason, count) in summary.rejected.sorted(by: { $0.key < $1.key }) {
            output.line("rejected (\(reason)): \(count)")
        }
        output.line("characteristics: \(summary.characteristicsImported ? "imported" : "none in the file")")
        if let version = summary.exportVersion { output.line("export version: \(version)") }
        if summary.notWellFormed > 0 {
            let line = summary.firstNotWellFormedLine.map { ", the first at line \($0)" } ?? ""
            output.line("not well-formed XML, read past: \(summary.notWellFormed) places\(line)")
        }
        if summary.mendedAttributeNames > 0 {
            let line = summary.firstMendedAttributeNameLine.map { ", the first at line \($0)" } ?? ""
            output.line("attribute names with spaces mended with _: \(summary.mendedAttributeNames)\(line)")
        }
        if summary.identicalRecords > 0 {
            output.line("identical elements kept as distinct objects: \(summary.identicalRecords)")
        }
        if summary.clamped > 0 {
            output.line("clamped to their workout's end (whole-second dates): \(summary.clamped)")
        }
        if summary.missingFiles > 0 {
            let first = summary.firstMissingFile.map { ", the first \($0)" } ?? ""
            output.line("files the export refers to but does not hold: \(summary.missingFiles)\(first)")
        }
        if summary.skippedHeartbeats > 0 {
            output.line("per-beat readings left out of their heartbeat series: \(summary.skippedHeartbeats)")
        }
        if summary.shiftedHeartbeatLists > 0 {
            output.line(
                "per-beat lists in another offset than their record, moved into it: \(summary.shiftedHeartbeatLists)"
            )
        }
        if summary.droppedControlCharacters > 0 {
            output.line("control characters dropped: \(summary.droppedControlCharacters)")
        }
    }
}
