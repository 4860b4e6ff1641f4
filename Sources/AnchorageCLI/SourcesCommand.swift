import Anchorage
import ArgumentParser
import Foundation

/// `anchorage sources`: the sources that saved samples of a type.
struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "The sources (apps, devices, imports) that saved samples of a type."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "A sample type: stepCount, sleepAnalysis, workout…")
    var type: String

    func validate() throws {
        _ = try SampleTypeArgument.require(type)
    }

    func run() async throws {
        let sampleType = try SampleTypeArgument.require(type)
        let store = try await storeOptions.openStoreForReading()
        let found: Result<Set<HKSource>, any Error> = await withCheckedContinuation { continuation in
            store.execute(
                HKSourceQuery(sampleType: sampleType, samplePredicate: nil) { _, sources, error in
                    continuation.resume(returning: error.map { .failure($0) } ?? .success(sources ?? []))
                }
            )
        }
        await store.close()
        guard case .success(let sources) = found else {
            if case .failure(let error) = found {
                throw CommandFailure(description: "the query failed: \(ErrorWords.describe(error))")
            }
            return
        }
        let output = CLIOutput.current
        for source in sources.sorted(by: { $0.bundleIdentifier < $1.bundleIdentifier }) {
            output.line("\(source.bundleIdentifier)\t\(source.name)")
        }
    }
}
