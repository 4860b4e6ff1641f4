import Anchorage
import ArgumentParser
import Foundation

/// `anchorage save`: saves samples given as JSON on standard input, all or
/// none.
struct SaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract: "Save samples read as JSON from standard input (all or none).",
        discussion: """
            The input is a JSON array of samples in the form of docs/json-format.md, or {"samples": [...]}.
            Example: echo '[{"kind":"quantitySample","uuid":"…","type":"HKQuantityTypeIdentifierStepCount",
              "startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:10:00Z",
              "quantity":{"value":120,"unit":"count"}}]' | anchorage save
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "Read from this file instead of standard input.")
    var file: String?

    func run() async throws {
        let data: Data
        do {
            data =
                try file.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } ?? FileHandle.standardInput.readToEnd()
                ?? Data()
        } catch {
            throw CommandFailure(
                description: "cannot read \(file ?? "standard input"): \(FileErrorWords.describe(error))"
            )
        }
        let batch: SampleBatch
        do {
            batch = try SampleBatch(json: data)
        } catch let error as DecodingError {
            throw CommandFailure(description: "the input is not valid: \(DecodingErrorWords.describe(error))")
        } catch {
            throw CommandFailure(description: "the input is not valid: \(ErrorWords.describe(error))")
        }
        try await storeOptions.withStore(failure: "nothing was saved") { try await $0.save(batch.objects) }
        CLIOutput.current.line("saved \(batch.objects.count)")
    }
}

/// `anchorage delete`: deletes the samples the uuids name; the others are
/// reported.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete samples by uuid: those found are deleted; exit status 1 if some uuids name no sample."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Argument(help: "The uuids of the samples to delete.")
    var uuids: [String]

    func validate() throws {
        guard !uuids.isEmpty else { throw ValidationError("name at least one uuid") }
        for text in uuids where UUID(uuidString: text) == nil {
            throw ValidationError("'\(text.prefix(60))' is not a uuid")
        }
    }

    func run() async throws {
        let ids = uuids.compactMap(UUID.init(uuidString:))
        let deleted = try await storeOptions.withStore(failure: "nothing was deleted") { store in
            try await store.deleteObjects(withUUIDs: ids)
        }
        CLIOutput.current.line("deleted \(deleted)")
        if deleted < Set(ids).count {
            throw CommandFailure(description: "\(Set(ids).count - deleted) of the uuids name no sample in the store")
        }
    }
}
