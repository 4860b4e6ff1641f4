import Anchorage
import AnchorageService
import ArgumentParser
import Foundation

/// `anchorage sources`: the sources that saved samples of a type.
struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "The sources (apps, devices, imports) that saved samples of a type."
    )

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var typeOption: SampleTypeOption

    func run() async throws {
        let sampleType = try typeOption.sampleType()
        let sources = try await storeOptions.withStoreForReading(failure: "the query failed", recordsReads: true) {
            store in
            let sources = try await HKSourceQueryDescriptor(predicate: .sample(type: sampleType)).result(for: store)
            try await store.recordRead(
                AccessRecord(
                    principal: "",
                    action: "anchorage sources",
                    types: [sampleType.identifier],
                    count: sources.count
                )
            )
            return sources
        }
        let output = CLIOutput.current
        for source in sources.sorted(by: { $0.bundleIdentifier < $1.bundleIdentifier }) {
            output.line("\(source.bundleIdentifier)\t\(source.name)")
        }
    }
}
