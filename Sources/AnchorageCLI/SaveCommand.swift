import Anchorage
import AnchorageService
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
            batch = try SampleWrites.batch(json: data)
        } catch {
            throw CommandFailure(description: "the input is not valid: \(ErrorWords.describe(error))")
        }
        let writes = try storeOptions.writeGuard()
        let saved = try await storeOptions.withStore(failure: "nothing was saved") { store in
            try await SampleWrites.save(batch, to: store, guarded: writes)
        }
        CLIOutput.current.line("saved \(saved.count)")
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
        let deletion = try await storeOptions.withStore(failure: "nothing was deleted") { store in
            try await SampleWrites.delete(ids, from: store, guarded: try storeOptions.writeGuard())
        }
        CLIOutput.current.line("deleted \(deletion.deleted)")
        if deletion.missing > 0 {
            throw CommandFailure(description: "\(deletion.missing) of the uuids name no sample in the store")
        }
    }
}
