public import AnchorageCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix
import Synchronization

/// A client of etcd's v3 API through its HTTP JSON gateway (`/v3/kv/range`,
/// `/v3/kv/txn`, `/v3/lease/grant`, `/v3/watch`…), on AsyncHTTPClient: no
/// gRPC stack needed.
///
/// It talks to one member at a time and fails over to the next on its own
/// when a request was certainly not sent, or, for a request that changes
/// nothing (a read, a keep-alive), when no answer came. A write whose
/// outcome is unknown is never sent again: it fails with
/// ``EtcdError/Code/noAnswer`` for the caller to resolve by reading.
///
/// ```swift
/// let etcd = try EtcdClient(.init(endpoints: ["http://127.0.0.1:2379", "http://127.0.0.1:22379"]))
/// let lease = try await etcd.grantLease(ttl: 10)
/// try await etcd.put("/anchorage/nodes/n1", value: Array("{}".utf8), lease: lease.id)
/// let nodes = try await etcd.range(.prefix("/anchorage/nodes/"))
/// await etcd.shutdown()
/// ```
public final class EtcdClient: Sendable {
    /// How to reach the cluster.
    public struct Configuration: Sendable {
        /// The members' client URLs (`http://host:port`), tried in order.
        public var endpoints: [String]
        /// How long a request may take before its outcome counts as unknown.
        public var requestTimeout: Duration = .seconds(2)
        /// How long connecting to one member may take before the next is tried.
        public var connectTimeout: Duration = .seconds(1)
        /// A user and password, when the cluster has authentication on.
        public var credentials: (user: String, password: String)?
        /// The clock a broken watch waits on before it tries again.
        public var clock: StoreClock = .continuous

        public init(endpoints: [String], credentials: (user: String, password: String)? = nil) {
            self.endpoints = endpoints
            self.credentials = credentials
        }
    }

    let configuration: Configuration
    let endpoints: [URL]
    let http: HTTPClient
    /// The member that answered last: requests start there.
    private let preferred = Mutex(0)
    /// The authentication token, once obtained.
    private let token = Mutex<String?>(nil)

    /// A client of the members `configuration` names.
    ///
    /// - Throws: ``EtcdError`` `refused` for no endpoint or one that is not
    ///   an `http://` or `https://` URL with a host.
    public init(_ configuration: Configuration) throws {
        var urls: [URL] = []
        for text in configuration.endpoints {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host != nil
            else {
                throw EtcdError(.refused, "the etcd endpoint '\(text.prefix(200))' is not an http:// or https:// URL")
            }
            urls.append(url)
        }
        guard !urls.isEmpty else { throw EtcdError(.refused, "no etcd endpoint was given") }
        self.configuration = configuration
        self.endpoints = urls
        var settings = HTTPClient.Configuration()
        settings.timeout = .init(connect: .nanoseconds(Self.nanoseconds(configuration.connectTimeout)))
        settings.connectionPool.retryConnectionEstablishment = false
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: settings)
    }

    /// Releases the client's connections; call it once, when done.
    public func shutdown() async {
        try? await http.shutdown()
    }

    // MARK: Requests

    /// The member requests start at: the one that answered last.
    var startIndex: Int { preferred.withLock { $0 } }

    /// The index, in ``Configuration/endpoints``, of the member requests
    /// (and new watches) go to first: the one that answered last.
    public var preferredEndpoint: Int { startIndex }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    static func url(_ endpoint: URL, _ path: String) -> String {
        let base = endpoint.absoluteString
        return (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
    }

    /// Whether a request may be sent to another member after no answer:
    /// only if it changes nothing, or changing it twice is harmless.
    enum Repeat {
        case safe
        case never
    }

    /// Posts `body` to `path` and decodes the answer, failing over between
    /// members as ``Repeat`` allows.
    func call<Answer: Decodable>(
        _ path: String,
        _ body: GatewayBody,
        repeat policy: Repeat,
        as type: Answer.Type = Answer.self
    ) async throws -> Answer {
        let bytes = try await post(path, body, repeat: policy)
        do {
            return try JSONDecoder().decode(Answer.self, from: Data(buffer: bytes))
        } catch {
            throw EtcdError(.refused, "etcd answered \(path) with something that is not its JSON answer")
        }
    }

    func post(_ path: String, _ body: GatewayBody, repeat policy: Repeat) async throws -> ByteBuffer {
        var renewedToken = false
        while true {
            do {
                return try await postOnce(path, body, repeat: policy)
            } catch let error as EtcdError
                where error.status == EtcdError.Status.unauthenticated && configuration.credentials != nil
                && !renewedToken && path != "/v3/auth/authenticate"
            {
                // The token expired (etcd's simple tokens last 5 minutes):
                // refused, so nothing was applied. Sign in again once.
                renewedToken = true
                token.withLock { $0 = nil }
            }
        }
    }

    private func postOnce(_ path: String, _ body: GatewayBody, repeat policy: Repeat) async throws -> ByteBuffer {
        let authorization = try await authorization(for: path)
        let first = startIndex
        var failures: [String] = []
        var unanswered = false  // whether a member may have received it
        for step in 0..<endpoints.count {
            let index = (first + step) % endpoints.count
            let endpoint = endpoints[index]
            var request = HTTPClientRequest(url: Self.url(endpoint, path))
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            if let authorization { request.headers.add(name: "Authorization", value: authorization) }
            request.body = .bytes(ByteBuffer(data: body.data))
            let outcome: Result<ByteBuffer, EtcdError>
            do {
                let response = try await http.execute(
                    request,
                    timeout: .nanoseconds(Self.nanoseconds(configuration.requestTimeout))
                )
                let bytes = try await response.body.collect(upTo: 64 << 20)
                outcome = response.status == .ok ? .success(bytes) : .failure(Self.error(response.status, bytes))
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                outcome = .failure(Self.error(error, endpoint: endpoint))
            }
            switch outcome {
            case .success(let bytes):
                preferred.withLock { $0 = index }
                return bytes
            case .failure(let error):
                let tryNext = error.code == .notSent || (error.code == .noAnswer && policy == .safe)
                guard tryNext else { throw error }
                unanswered = unanswered || error.code == .noAnswer
                failures.append("\(endpoint.host ?? "?"):\(endpoint.port ?? 0): \(error.message)")
            }
        }
        throw EtcdError(
            unanswered ? .noAnswer : .notSent,
            "no etcd member answered (\(failures.joined(separator: "; ")))"
        )
    }

    /// The `Authorization` header's value: the token, obtained first if
    /// the cluster needs one.
    func authorization(for path: String) async throws -> String? {
        guard let credentials = configuration.credentials, path != "/v3/auth/authenticate" else { return nil }
        if let current = token.withLock({ $0 }) { return current }
        struct Answer: Decodable { var token: String? }
        let answer = try await call(
            "/v3/auth/authenticate",
            .object(["name": .string(credentials.user), "password": .string(credentials.password)]),
            repeat: .safe,
            as: Answer.self
        )
        guard let fresh = answer.token, !fresh.isEmpty else {
            throw EtcdError(.refused, "etcd gave no token for user '\(credentials.user)'")
        }
        token.withLock { $0 = fresh }
        return fresh
    }

    /// etcd's refusal (or unknown outcome) from an answer other than 200.
    static func error(_ status: HTTPResponseStatus, _ body: ByteBuffer) -> EtcdError {
        struct Answer: Decodable {
            var error: String?
            var message: String?
            var code: Int?
        }
        let answer = try? JSONDecoder().decode(Answer.self, from: Data(buffer: body))
        let code = answer?.code ?? 0
        let message = answer?.message ?? answer?.error ?? "HTTP \(status.code) \(status.reasonPhrase)"
        let unknown = [
            EtcdError.Status.canceled, EtcdError.Status.unknown, EtcdError.Status.deadlineExceeded,
            EtcdError.Status.unavailable,
        ]
        if unknown.contains(code) || (answer?.code == nil && status.code >= 500) {
            return EtcdError(.noAnswer, status: code, message)
        }
        return EtcdError(.refused, status: code, message)
    }

    /// Whether a transport error came before the request left (not sent)
    /// or after (outcome unknown).
    static func error(_ error: any Error, endpoint: URL) -> EtcdError {
        let words = String(describing: error).prefix(300)
        switch error {
        case is NIOConnectionError:
            return EtcdError(.notSent, "could not connect: \(words)")
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return EtcdError(.notSent, "the connection was refused")
        case let error as ChannelError:
            if case .connectTimeout = error { return EtcdError(.notSent, "connecting timed out") }
            return EtcdError(.noAnswer, "the connection failed: \(words)")
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout: return EtcdError(.notSent, "connecting timed out")
            case .invalidURL, .emptyHost, .emptyScheme:
                return EtcdError(.notSent, "the endpoint \(endpoint) is not a usable URL")
            case .deadlineExceeded, .readTimeout: return EtcdError(.noAnswer, "no answer in time")
            default: return EtcdError(.noAnswer, "the request failed: \(words)")
            }
        default:
            return EtcdError(.noAnswer, "the request failed: \(words)")
        }
    }
}
