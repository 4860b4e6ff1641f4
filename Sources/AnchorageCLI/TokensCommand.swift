import AnchorageService
import ArgumentParser
import Foundation

/// `anchorage tokens`: the bearer tokens of a multi-store node's stores.
struct TokensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens",
        abstract: "Issue, list and revoke tokens, each bound to one store and one principal.",
        subcommands: [TokensIssueCommand.self, TokensListCommand.self, TokensRevokeCommand.self]
    )
}

/// `anchorage tokens issue --store ID (--owner | --app BUNDLE … | --peer)`,
/// `anchorage tokens issue --admin`, or `anchorage tokens issue --consumer
/// --read TYPE …`.
struct TokensIssueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "issue",
        abstract: "Issue a token; prints its secret, which is shown only this once.",
        discussion: """
            The secret goes to standard output (give it as Authorization: Bearer <secret>), the token's id to standard \
            error; the node keeps only the secret's SHA-256 digest. Revoke with `anchorage tokens revoke <id>`.
            """
    )

    @OptionGroup var node: NodeRootOption

    @Option(help: "The store the token reaches.")
    var store: String?

    @Flag(help: "The token is the node administrator's: it manages stores and tokens over HTTP, and reads no store.")
    var admin = false

    @Flag(
        help: """
            The token is a consumer's of the whole node: it follows which stores changed (GET /v1/store-updates) and \
            reads every store's change feed, of the --read types only, and nothing else.
            """
    )
    var consumer = false

    @Flag(help: "The token acts as the store's owner: reads and writes everything.")
    var owner = false

    @Flag(help: "The token is a peer's: it replicates the store and reaches nothing else.")
    var peer = false

    @Option(help: ArgumentHelp("The app the token acts as.", valueName: "bundle-identifier"))
    var app: String?

    @Option(help: "The app's name as sources show it (default: its bundle identifier).")
    var appName: String?

    @Option(help: "A type the app or consumer may read (repeat for several): stepCount, heartRate, activitySummary…")
    var read: [String] = []

    @Option(help: "A sample type the app may save and delete (repeat for several).")
    var share: [String] = []

    func validate() throws {
        if consumer {
            guard store == nil, !admin, !owner, !peer, app == nil, share.isEmpty, appName == nil else {
                throw ValidationError("a consumer's token (--consumer) reaches every store and has only --read grants")
            }
            guard !read.isEmpty else {
                throw ValidationError("name the types the consumer reads: --read stepCount --read heartRate …")
            }
            return
        }
        if admin {
            guard store == nil, !owner, !peer, app == nil, read.isEmpty, share.isEmpty, appName == nil else {
                throw ValidationError("an administrator's token (--admin) reaches no store and has no other grant")
            }
            return
        }
        guard store != nil else { throw ValidationError("name the store the token reaches: --store <id>") }
        guard [owner, peer, app != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("say who the token acts as: --owner, --peer or --app <bundle-identifier>")
        }
        if app == nil, !read.isEmpty || !share.isEmpty || appName != nil {
            throw ValidationError("--read, --share and --app-name are an app's grants; add --app")
        }
    }

    func grant(_ name: StoreName) -> TokenGrant {
        if owner { return TokenGrant(store: name, owner: true) }
        if peer { return TokenGrant(store: name, owner: false, replicates: true) }
        return TokenGrant(store: name, app: app ?? "", appName: appName, read: read, share: share)
    }

    func run() throws {
        let registry = try node.registry()
        let name = try store.map { text in try registryCall { () throws(ServiceError) in try StoreName(text) } }
        let grant = name.map(grant) ?? (consumer ? .consumer(read: read) : .administrator())
        let issued = try registryCall { () throws(ServiceError) in try registry.issueToken(grant) }
        let output = CLIOutput.current
        let whose = name.map { "store \($0)" } ?? (consumer ? "a consumer of every store" : "the node's administrator")
        output.status("issued \(issued.record.id) for \(whose); its secret is shown only now\n")
        output.line(issued.secret)
    }
}

/// `anchorage tokens list [--store ID]`.
struct TokensListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List tokens (never their secrets): id, store, and who the token acts as."
    )

    @OptionGroup var node: NodeRootOption

    @Option(help: "Only this store's tokens.")
    var store: String?

    func run() throws {
        let registry = try node.registry()
        let name = try store.map { text in try registryCall { () throws(ServiceError) in try StoreName(text) } }
        let output = CLIOutput.current
        let records = try registryCall { () throws(ServiceError) in try registry.tokens(of: name) }
        for record in records.sorted(by: { ($0.grant.store, $0.created, $0.id) < ($1.grant.store, $1.created, $1.id) })
        {
            output.line(
                "\(record.id)\t\(record.grant.isNodeWide ? "-" : record.grant.store)\t\(Self.describe(record.grant))"
            )
        }
    }

    static func describe(_ grant: TokenGrant) -> String {
        if grant.admin { return "admin" }
        if grant.consumer { return "consumer read \(grant.read.joined(separator: ","))" }
        if grant.owner { return grant.replicates ? "owner, replicates" : "owner" }
        guard let app = grant.app else { return "peer" }
        var words = "app \(app)"
        if !grant.read.isEmpty { words += " read \(grant.read.joined(separator: ","))" }
        if !grant.share.isEmpty { words += " share \(grant.share.joined(separator: ","))" }
        return words
    }
}

/// `anchorage tokens revoke ID`.
struct TokensRevokeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke a token: from now on no request is let in with it."
    )

    @OptionGroup var node: NodeRootOption

    @Argument(help: "The token's id (tok_…), as `tokens issue` and `tokens list` print it.")
    var id: String

    func run() throws {
        let registry = try node.registry()
        try registryCall { () throws(ServiceError) in try registry.revokeToken(id: id) }
        CLIOutput.current.line("revoked \(id)")
    }
}
