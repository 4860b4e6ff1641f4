import AnchorageLog
public import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL

/// A peer node reached over HTTP(S): its `/v1/sync` endpoints, or one
/// store's `/v1/stores/{store}/sync` in a multi-store node
/// (docs/sync-protocol.md), with a bearer token carrying the replication
/// grant.
///
/// ```swift
/// let transport = try HTTPPeerTransport(url: URL(string: "https://peer.example:8080")!, token: "peer-secret")
/// try await PeerReplicator(log: log, peer: transport).sync(.both)
/// try await transport.shutdown()
/// ```
public final class HTTPPeerTransport: PeerTransport {
    /// The peer's base URL: a node's (`https://peer.example:8080`), or one
    /// store's of a multi-store node (`…/v1/stores/alice`).
    public let url: URL
    /// Where the `sync/…` endpoints are: `<url>/v1/` for a node's URL, the
    /// URL itself (ending in `/`) when it names a store.
    private let syncBase: String
    private let token: String?
    private let client: HTTPClient
    /// Whether ``shutdown()`` shuts the client down (it is this transport's own).
    private let ownsClient: Bool
    private let maximumBatchBytes: Int

    /// Creates a transport. `trustRoots` names a PEM file of certificates
    /// to trust for `https` peers with their own certificate authority
    /// (otherwise the system's roots are used).
    ///
    /// - Throws: ``SyncError`` ``SyncError/Code/protocolViolation`` for a
    ///   URL that is not http or https; NIOSSL's error for an unreadable
    ///   trust file.
    public convenience init(
        url: URL,
        token: String?,
        trustRoots: String? = nil,
        maximumBatchBytes: Int = 80 << 20
    ) throws {
        try Self.check(url)  // before a client is made that would then need shutting down
        try self.init(
            url: url,
            token: token,
            client: try Self.client(trustRoots: trustRoots),
            ownsClient: true,
            maximumBatchBytes: maximumBatchBytes
        )
    }

    /// A transport that sends through `client`, shared with others (a
    /// multi-store node's peers share one connection pool); ``shutdown()``
    /// leaves it running. Make the client with ``client(trustRoots:)``.
    ///
    /// - Throws: ``SyncError`` ``SyncError/Code/protocolViolation`` for a
    ///   URL that is not http or https.
    public convenience init(url: URL, token: String?, client: HTTPClient, maximumBatchBytes: Int = 80 << 20) throws {
        try self.init(url: url, token: token, client: client, ownsClient: false, maximumBatchBytes: maximumBatchBytes)
    }

    private init(url: URL, token: String?, client: HTTPClient, ownsClient: Bool, maximumBatchBytes: Int) throws {
        try Self.check(url)
        self.url = url
        let base = url.absoluteString.hasSuffix("/") ? url.absoluteString : url.absoluteString + "/"
        syncBase = url.path.isEmpty || url.path == "/" ? base + "v1/" : base
        self.token = token
        self.client = client
        self.ownsClient = ownsClient
        self.maximumBatchBytes = maximumBatchBytes
    }

    /// Refuses an address that is not `http(s)://host…`.
    private static func check(_ url: URL) throws(SyncError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw SyncError(.protocolViolation, "the peer address \(url) is not an http:// or https:// URL")
        }
    }

    /// An HTTP client configured for peers: `trustRoots` names a PEM file
    /// of certificates to trust for `https` (otherwise the system's), and a
    /// peer that refuses connections fails the request at once (the
    /// replicator's back-off decides when to try again).
    ///
    /// - Throws: NIOSSL's error for an unreadable trust file.
    public static func client(trustRoots: String?) throws -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        if let trustRoots {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(trustRoots))
            configuration.tlsConfiguration = tls
        }
        configuration.timeout = .init(connect: .seconds(5))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Releases the transport's HTTP client, when it is its own; call it
    /// once the transport is no longer used.
    public func shutdown() async throws {
        if ownsClient { try await client.shutdown() }
    }

    public var peerDescription: String { url.absoluteString }

    public func identity(_ mine: PeerIdentity) async throws -> PeerIdentity {
        let body = try await send("POST", "sync/identity", json: mine, timeout: .seconds(30))
        return try decode(PeerIdentity.self, body)
    }

    public func pull(_ request: PullRequest) async throws -> [UInt8] {
        Array(buffer: try await send("POST", "sync/pull", json: request, timeout: .seconds(120)))
    }

    public func push(_ batch: [UInt8]) async throws -> BatchReceipt {
        let body = try await send(
            "POST",
            "sync/push",
            body: ByteBuffer(bytes: batch),
            contentType: "application/vnd.anchorage.batch",
            timeout: .seconds(120)
        )
        return try decode(BatchReceipt.self, body)
    }

    public func waitForChange(after head: UInt64, timeout: Duration) async throws -> UInt64 {
        try await waitForChange(after: head, timeout: timeout, epoch: nil)
    }

    public func waitForChange(after head: UInt64, timeout: Duration, epoch: UInt64?) async throws -> UInt64 {
        let seconds = max(0, Int(timeout.components.seconds))
        let body = try await send(
            "GET",
            "sync/wait?after=\(head)&timeout=\(seconds)" + (epoch.map { "&epoch=\($0)" } ?? ""),
            timeout: timeout + .seconds(15)
        )
        struct Head: Decodable { var head: UInt64 }
        return try decode(Head.self, body).head
    }

    // MARK: Requests

    private func send(
        _ method: String,
        _ path: String,
        json: some Encodable,
        timeout: Duration
    ) async throws -> ByteBuffer {
        let data = try JSONEncoder().encode(json)
        return try await send(
            method,
            path,
            body: ByteBuffer(data: data),
            contentType: "application/json",
            timeout: timeout
        )
    }

    private func send(
        _ method: String,
        _ path: String,
        body: ByteBuffer? = nil,
        contentType: String? = nil,
        timeout: Duration
    ) async throws -> ByteBuffer {
        var request = HTTPClientRequest(url: syncBase + path)
        request.method = HTTPMethod(rawValue: method)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        if let body { request.body = .bytes(body) }
        let response: HTTPClientResponse
        let bytes: ByteBuffer
        do {
            response = try await client.execute(request, timeout: .nanoseconds(timeout.nanosecondCount))
            bytes = try await response.body.collect(upTo: maximumBatchBytes)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw SyncError(.timedOut, "the peer \(url) did not answer within \(timeout)")
        } catch is NIOTooManyBytesError {
            throw SyncError(.tooLarge, "the peer \(url) sent more than \(maximumBatchBytes) bytes")
        } catch let error as SyncError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw SyncError(
                .unreachable,
                "the peer \(url) could not be reached: \(ConnectionErrorWords.describe(error))"
            )
        }
        guard response.status == .ok else { throw Self.error(status: response.status, body: bytes, url: url) }
        return bytes
    }

    private func decode<T: Decodable>(_ type: T.Type, _ body: ByteBuffer) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(buffer: body))
        } catch {
            throw SyncError(.protocolViolation, "the peer \(url) answered something that is not a \(type)")
        }
    }

    /// The ``SyncError`` for an answer other than 200.
    static func error(status: HTTPResponseStatus, body: ByteBuffer, url: URL) -> SyncError {
        struct Body: Decodable {
            var code: String
            var message: String
        }
        let answer = try? JSONDecoder().decode(Body.self, from: Data(buffer: body))
        let message =
            answer.map { "the peer \(url) answered \(status.code): \($0.message)" }
            ?? "the peer \(url) answered \(status.code) \(status.reasonPhrase)"
        switch (status, answer?.code) {
        case (.unauthorized, _), (.forbidden, _): return SyncError(.unauthorized, message)
        case (_, "malformedBatch"): return SyncError(.malformedBatch, message)
        case (_, "unsupportedVersion"): return SyncError(.unsupportedVersion, message)
        case (_, "wrongPeer"): return SyncError(.wrongPeer, message)
        case (_, "incarnationChanged"): return SyncError(.incarnationChanged, message)
        case (_, "checkpointMoved"): return SyncError(.checkpointMoved, message)
        case (_, "rejected"): return SyncError(.rejected, message)
        case (_, "staleEpoch"): return SyncError(.staleEpoch, message)
        case (.payloadTooLarge, _): return SyncError(.tooLarge, message)
        case (_, _) where status.code >= 500: return SyncError(.unreachable, message)
        default: return SyncError(.protocolViolation, message)
        }
    }
}
