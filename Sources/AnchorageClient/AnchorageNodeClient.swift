public import AsyncHTTPClient
public import Foundation
import HTTPTypes
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

/// A page of the change feed: the samples added and the objects deleted
/// since an anchor, the activity summaries changed, and the anchor to
/// resume from (`newAnchor`). Generated from docs/openapi.json.
public typealias ChangePage = Components.Schemas.ChangePage

/// A sample or other object in its JSON form (docs/json-format.md), typed:
/// one case per kind (`.quantitySample`, `.workout`, `.electrocardiogram`…).
/// Each case's value holds the fields every object has in `value1`
/// (``HealthObjectFields``: uuid, type, dates, source revision, device,
/// metadata) and the kind's own in `value2` (a quantity sample's
/// `quantity`, a workout's `workoutActivityType`…); ``HealthObject/fields``
/// reaches the first whatever the kind.
///
/// ```swift
/// for object in page.added {
///     guard case .quantitySample(let sample) = object, let quantity = sample.value2.quantity else { continue }
///     print(object.uuid, object.typeIdentifier, quantity.value, quantity.unit)
/// }
/// ```
public typealias HealthObject = Components.Schemas.HealthObject

/// The fields every object has, whatever its kind: its uuid, type
/// identifier, dates, source revision, device and metadata.
public typealias HealthObjectFields = Components.Schemas.HealthObjectFields

/// A client of one Anchorage node's HTTP API (docs/http-api.md), or of one
/// store of a multi-store node: pulls changes by anchor, follows the feed,
/// saves samples, and reaches every other operation through ``generated``,
/// the client generated from docs/openapi.json.
///
/// ```swift
/// let client = AnchorageNodeClient(serverURL: URL(string: "http://127.0.0.1:8080")!, token: "dashboard-secret")
/// var anchor: String? = nil  // or the anchor stored with what you derived from the last page
/// let page = try await client.changes(since: anchor, types: ["stepCount"], limit: 500)
/// for sample in page.added { print(sample.uuid, sample.typeIdentifier) }
/// anchor = page.newAnchor
/// ```
///
/// Named `AnchorageNodeClient`, not after its module, so that the module
/// name stays free to qualify the generated `Client`, `Components` and
/// `Operations` beside another generated client's.
public struct AnchorageNodeClient: Sendable {
    /// The generated client, for the operations this type has no method for.
    /// Its errors for answers of 400 or more are `ClientError`s whose
    /// `underlyingError` is an ``AnchorageClientError``.
    public let generated: Client
    /// The store of a multi-store or fleet node: every store route, the
    /// generated ones included, goes to `/v1/stores/{store}/…`; `nil` for a
    /// single-store node's routes (`/v1/…`).
    public let store: String?

    /// A client of the node at `serverURL` (`http://127.0.0.1:8080`, with
    /// no `/v1`), sending `token` as its bearer token.
    ///
    /// - Parameters:
    ///   - store: one store of a multi-store node; `nil` for a single-store node.
    ///   - httpClient: the connection pool to send through (one with your
    ///     TLS trust roots, say); it stays yours to shut down. The shared
    ///     pool tries again to connect to a node that refuses, until `timeout`.
    ///   - timeout: the longest a request may take, long-polls included
    ///     (their `wait` must be shorter).
    public init(
        serverURL: URL,
        token: String?,
        store: String? = nil,
        httpClient: HTTPClient = .shared,
        timeout: Duration = .seconds(90)
    ) {
        let transport = AsyncHTTPClientTransport(
            configuration: .init(client: httpClient, timeout: .nanoseconds(Int64(timeout.nanoseconds)))
        )
        var middlewares: [any ClientMiddleware] = [NodeErrorMiddleware()]
        if let store { middlewares.insert(StorePathMiddleware(store: store), at: 0) }
        if let token { middlewares.insert(BearerTokenMiddleware(token: token), at: 0) }
        generated = Client(serverURL: serverURL, transport: transport, middlewares: middlewares)
        self.store = store
    }

    /// One page of changes after `anchor`: what was added, deleted and
    /// summarised since, oldest first, and the page's `newAnchor` to resume
    /// from. Store `newAnchor` with what you derived from the page.
    ///
    /// ```swift
    /// var page = try await client.changes(types: ["stepCount"], limit: 100)
    /// while page.hasMore { page = try await client.changes(since: page.newAnchor, types: ["stepCount"], limit: 100) }
    /// ```
    ///
    /// - Parameters:
    ///   - anchor: the `newAnchor` of the last page applied; `nil` from the beginning.
    ///   - types: type names (`stepCount`) or identifiers, and
    ///     `activitySummary`; empty for every type the token may read.
    ///   - limit: at most this many changes (the node's default: 1,000).
    ///   - wait: when nothing is newer than `anchor`, how long the node may
    ///     hold the request for a matching change (a long-poll, at most 60 s).
    /// - Throws: ``AnchorageClientError``: `anchorNotValid` for an anchor of
    ///   another store or from before a restore (start over from `nil`),
    ///   `unauthenticated` for a bad token, `unreachable`…
    public func changes(
        since anchor: String? = nil,
        types: [String] = [],
        limit: Int? = nil,
        wait: Duration? = nil
    ) async throws -> ChangePage {
        let types = types.isEmpty ? nil : types.joined(separator: ",")
        let seconds = wait.map { Int(min(max($0.components.seconds, 0), 60)) }
        let query = Operations.Changes.Input.Query(types: types, since: anchor, limit: limit, wait: seconds)
        return try await Self.mappingErrors {
            try await generated.changes(query: query, headers: .init(accept: [.init(contentType: .json)])).ok.body.json
        }
    }

    /// The change feed from `anchor` on, page by page, as an
    /// `AsyncSequence`: the backlog first, then each commit's changes as
    /// the node makes them (long-polls of `wait`). Only pages with changes
    /// are yielded; each one's `newAnchor` is where a later run resumes.
    ///
    /// ```swift
    /// for try await page in client.changeFeed(since: storedAnchor, types: ["stepCount"]) {
    ///     try apply(page)
    ///     storedAnchor = page.newAnchor
    /// }
    /// ```
    ///
    /// The sequence ends when its task is cancelled, and throws the first
    /// ``AnchorageClientError``; start it again from the last anchor.
    public func changeFeed(
        since anchor: String? = nil,
        types: [String] = [],
        limit: Int? = nil,
        wait: Duration = .seconds(30)
    ) -> ChangeFeed {
        ChangeFeed(client: self, anchor: anchor, types: types, limit: limit, wait: wait)
    }

    /// Saves `objects`, all or none, and returns their uuids.
    ///
    /// ```swift
    /// let sample = try JSONDecoder().decode(HealthObject.self, from: Data(json.utf8))
    /// let saved = try await client.save([sample])
    /// ```
    ///
    /// - Throws: ``AnchorageClientError``: `authorizationDenied` for a type
    ///   the token may not share, `invalidArgument`, `unknownType`…
    @discardableResult
    public func save(_ objects: [HealthObject]) async throws -> [String] {
        try await Self.mappingErrors {
            try await generated.saveSamples(body: .json(.case1(objects))).created.body.json.uuids
        }
    }

    /// A fleet node's status (`GET /v1/fleet/status`): itself, its lease,
    /// the live nodes and the copies it holds.
    ///
    /// - Throws: ``AnchorageClientError``.
    public func fleetStatus() async throws -> Components.Schemas.FleetStatus {
        try await Self.mappingErrors { try await generated.fleetStatus().ok.body.json }
    }

    /// Runs `body`, turning the generated client's errors into
    /// ``AnchorageClientError``s.
    static func mappingErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ClientError {
            switch error.underlyingError {
            case let known as AnchorageClientError: throw known
            case is CancellationError: throw CancellationError()
            case is DecodingError:
                throw AnchorageClientError(
                    .invalidResponse,
                    status: error.response?.status.code,
                    "the node's answer to \(error.operationID) does not decode: \(error.underlyingError)"
                )
            default:
                guard error.response == nil else {
                    throw AnchorageClientError(
                        .invalidResponse,
                        status: error.response?.status.code,
                        "the node's answer to \(error.operationID): \(error.causeDescription)"
                    )
                }
                throw AnchorageClientError(
                    .unreachable,
                    status: nil,
                    "the node at \(error.baseURL?.absoluteString ?? "?") could not be reached: \(error.underlyingError)"
                )
            }
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}

extension ChangePage {
    /// Whether the page holds no change (a long-poll that timed out, or the
    /// end of the feed).
    public var isEmpty: Bool { added.isEmpty && deleted.isEmpty && activitySummaries.isEmpty }
}

extension Operations.ListStores.Output.Ok.Body.JsonPayload.StoresPayloadPayload {
    /// The store's id, whichever kind of node listed it: a multi-store
    /// node's record (`StoreRecord`) or a fleet's placement (`StorePlacement`).
    ///
    /// ```swift
    /// let ids = try await client.generated.listStores().ok.body.json.stores.map(\.id)
    /// ```
    public var id: String {
        switch self {
        case .StoreRecord(let record): record.id
        case .StorePlacement(let placement): placement.id
        }
    }
}
