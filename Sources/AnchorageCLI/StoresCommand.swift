import AnchorageService
import ArgumentParser
import Foundation

/// Where a multi-store node keeps its stores: `--stores DIR`.
struct NodeRootOption: ParsableArguments {
    @Option(
        name: .customLong("stores"),
        help: ArgumentHelp(
            "The directory of a multi-store node: its registry and one directory per store.",
            valueName: "dir"
        )
    )
    var root: String

    /// Opens the node's registry (creating it when the directory is new).
    func registry() throws -> NodeRegistry {
        do {
            return try NodeRegistry(root: URL(filePath: root, directoryHint: .isDirectory))
        } catch {
            throw CommandFailure(description: error.message)
        }
    }
}

/// `anchorage stores`: the stores of a multi-store node.
struct StoresCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stores",
        abstract: "Create, list and delete the stores of a multi-store node (serve --stores DIR).",
        subcommands: [
            StoresCreateCommand.self, StoresListCommand.self, StoresDeleteCommand.self, StoresQuotaCommand.self,
            StoresMigrateCommand.self,
        ]
    )
}

/// Runs a registry call, reporting its typed error as a runtime failure.
func registryCall<R>(_ body: () throws(ServiceError) -> R) throws -> R {
    do {
        return try body()
    } catch {
        throw CommandFailure(description: error.message)
    }
}

/// `anchorage stores create ID…`.
struct StoresCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create stores, all or none: ids of 1 to 64 lowercase letters, digits, '-' and '_'."
    )

    @OptionGroup var node: NodeRootOption

    @Argument(help: "The new stores' ids.")
    var ids: [String]

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("name at least one store id") }
        for id in ids {
            do { _ = try StoreName(id) } catch { throw ValidationError(error.message) }
        }
    }

    func run() throws {
        let registry = try node.registry()
        let output = CLIOutput.current
        let names = try ids.map { id in try registryCall { () throws(ServiceError) in try StoreName(id) } }
        try registryCall { () throws(ServiceError) in _ = try registry.createStores(names) }
        for name in names { output.line("created \(name)") }
    }
}

/// `anchorage stores list`.
struct StoresListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the stores: id, when it was created (UTC), and its quota if it has one."
    )

    @OptionGroup var node: NodeRootOption

    func run() throws {
        let registry = try node.registry()
        let output = CLIOutput.current
        let formatter = ISO8601DateFormatter()
        for record in try registryCall({ () throws(ServiceError) in try registry.stores() }) {
            let state = record.state == .deleting ? "\tdeleting" : ""
            let quota = record.maximumBytes.map { "\tquota \($0) bytes" } ?? ""
            output.line("\(record.id)\t\(formatter.string(from: record.created))\(quota)\(state)")
        }
    }
}

/// `anchorage stores delete ID --yes`.
struct StoresDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Erase a store: its tokens are revoked at once, its directory removed for good.",
        discussion: """
            A store a running process has open (a node that served it lately) is refused and left as it was. The erasure \
            is durable: a crash part way is finished the next time the registry opens.
            """
    )

    @OptionGroup var node: NodeRootOption

    @Argument(help: "The store to erase.")
    var id: String

    @Flag(help: "Confirm: the store's data cannot be brought back.")
    var yes = false

    func validate() throws {
        do { _ = try StoreName(id) } catch { throw ValidationError(error.message) }
        guard yes else { throw ValidationError("deleting erases the store's data for good; add --yes to confirm") }
    }

    func run() throws {
        let registry = try node.registry()
        let name = try registryCall { () throws(ServiceError) in try StoreName(id) }
        try registryCall { () throws(ServiceError) in try registry.deleteStore(name) }
        CLIOutput.current.line("deleted \(name)")
    }
}

/// `anchorage stores quota ID --max-bytes N | --none`.
struct StoresQuotaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quota",
        abstract: "Set a store's storage quota: once its data file uses that many bytes, saves and pushes are refused.",
        discussion: "Deletes still go through. A running node applies the quota from its next request."
    )

    @OptionGroup var node: NodeRootOption

    @Argument(help: "The store.")
    var id: String

    @Option(parsing: .unconditional, help: "The most bytes its data file may use (at least 1048576).")
    var maxBytes: Int?

    @Flag(help: "Lift the quota.")
    var none = false

    func validate() throws {
        guard (maxBytes == nil) == none else { throw ValidationError("give --max-bytes N or --none") }
        if let maxBytes, maxBytes < 1 << 20 { throw ValidationError("--max-bytes is at least 1048576 (1 MiB)") }
    }

    func run() throws {
        let registry = try node.registry()
        let record = try registryCall { () throws(ServiceError) in
            try registry.setQuota(of: try StoreName(id), maximumBytes: maxBytes)
        }
        CLIOutput.current.line(
            record.maximumBytes.map { "store \(record.id): quota \($0) bytes" } ?? "store \(record.id): no quota"
        )
    }
}
