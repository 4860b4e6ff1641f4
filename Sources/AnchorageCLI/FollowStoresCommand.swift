import AnchorageClient
import ArgumentParser
import Foundation

/// `anchorage follow-stores --url URL --token T`: every store's changes of
/// a multi-store node or a fleet, with one cursor (docs/http-api.md, "One feed across
/// every store").
struct FollowStoresCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow-stores",
        abstract: "Follow every store's changes of a multi-store node or a fleet with one cursor, as JSON lines.",
        discussion: """
            Reads the node's store updates (GET /v1/store-updates) and, for each store that changed, its change feed \
            from the update's anchor. Each object is a line {"store": …, "added": {…}} or {"store": …, "deleted": \
            {"uuid": …}} (activity summaries: "activitySummary"); a deleted store is {"store": …, "storeDeleted": \
            true}. With --cursor-file, the cursor after each update is written there (atomically) once its changes \
            are printed, and a later run resumes from it: an object may be printed twice, never skipped. The token is \
            a consumer's (anchorage tokens issue --consumer --read TYPE …), or on a fleet its secret (any node).
            """
    )

    @Option(help: "The node's URL, e.g. http://127.0.0.1:8091 (no /v1).")
    var url: String

    @Option(help: "A consumer's token, or a fleet's secret (or give --token-file).")
    var token: String?

    @Option(help: "A file holding the consumer's token.")
    var tokenFile: String?

    @Option(help: "Only these types (comma-separated names: stepCount,heartRate); default: every type the token reads.")
    var types: String?

    @Option(help: "Where the cursor is kept: read at start (when the file exists), written after each update.")
    var cursorFile: String?

    @Option(help: "Start after this cursor (default: the cursor file's, or the first update).")
    var since: String?

    @Flag(help: "Stop once caught up, instead of waiting for more.")
    var once = false

    func validate() throws {
        guard (token == nil) != (tokenFile == nil) else { throw ValidationError("give --token or --token-file") }
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme), parsed.host != nil else {
            throw ValidationError("--url is http(s)://host:port, e.g. http://127.0.0.1:8091")
        }
    }

    func run() async throws {
        let secret = try token ?? Self.read(tokenFile!, what: "token").trimmingCharacters(in: .whitespacesAndNewlines)
        var cursor = since
        if cursor == nil, let cursorFile, FileManager.default.fileExists(atPath: cursorFile) {
            cursor = try Self.read(cursorFile, what: "cursor").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let follower = StoreChangesFollower(
            serverURL: URL(string: url)!,
            token: secret,
            types: types.map { $0.split(separator: ",").map(String.init) } ?? []
        )
        let output = CLIOutput.current
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            try await follower.follow(from: cursor, once: once) { event in
                switch event {
                case .changes(let store, let page):
                    for object in page.added { output.line(try Self.line(store, "added", object, encoder)) }
                    for deleted in page.deleted { output.line(try Self.line(store, "deleted", deleted, encoder)) }
                    for summary in page.activitySummaries {
                        output.line(try Self.line(store, "activitySummary", summary, encoder))
                    }
                case .storeDeleted(let store):
                    output.line(try Self.line(store, "storeDeleted", true, encoder))
                case .updateRead(let cursor):
                    if let cursorFile { try Self.keep(cursor, in: cursorFile) }
                }
            }
        } catch let error as AnchorageClientError {
            throw ValidationError("the node refused: \(error.message) (\(error.code))")
        }
    }

    /// `{"<key>": value, "store": store}`, keys sorted.
    static func line(_ store: String, _ key: String, _ value: some Encodable, _ encoder: JSONEncoder) throws -> String {
        String(decoding: try encoder.encode(StoreLine(store: store, key: key, value: value)), as: UTF8.self)
    }

    static func read(_ path: String, what: String) throws -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ValidationError("cannot read the \(what) file \(path): \(error.localizedDescription)")
        }
    }

    /// Writes `cursor` to `path` so that a crash leaves the old cursor or
    /// the new one, never a torn one: a temporary file, flushed, renamed.
    static func keep(_ cursor: String, in path: String) throws {
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data((cursor + "\n").utf8)) else {
            throw ValidationError("cannot write the cursor file \(temporary)")
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        try handle.synchronize()
        try handle.close()
        if rename(temporary, path) != 0 {
            throw ValidationError("cannot write the cursor file \(path): \(String(cString: strerror(errno)))")
        }
    }
}

/// One line of `follow-stores`: a value under its key, and the store.
private struct StoreLine<Value: Encodable>: Encodable {
    let store: String
    let key: String
    let value: Value

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(value, forKey: Key(stringValue: key))
        try container.encode(store, forKey: Key(stringValue: "store"))
    }
}
