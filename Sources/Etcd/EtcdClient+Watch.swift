import AnchorageCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// One change a watch saw.
public struct EtcdEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case put
        case delete
    }

    public var kind: Kind
    /// The key after the change (for a delete: the key, and the revision
    /// of the delete as its mod revision).
    public var kv: EtcdKeyValue
    /// The key before it, when the watch asked for it.
    public var previous: EtcdKeyValue?
}

/// What a watch delivers at a time: events of one or more revisions.
public struct EtcdWatchResponse: Sendable, Hashable {
    public var header: EtcdHeader
    public var events: [EtcdEvent]
}

/// What ``EtcdClient/follow(_:pageSize:)`` delivers.
public enum EtcdFollowUpdate: Sendable, Hashable {
    /// Every key, as of `revision`: replace what was known (the first
    /// update, and again after the watch fell behind a compaction).
    case snapshot([EtcdKeyValue], revision: Int64)
    /// Changes since the last update.
    case events([EtcdEvent])
}

extension EtcdClient {
    /// Streams the changes of `keys` from `revision` on (0: from now).
    ///
    /// The stream fails with ``EtcdError`` ``EtcdError/isCompacted`` when
    /// `revision` was compacted away (read again, then watch from after the
    /// read: ``follow(_:pageSize:)`` does it), and with `noAnswer` when the
    /// member goes away. Cancel the consuming task to stop it.
    ///
    /// ```swift
    /// for try await response in etcd.watch(.prefix("/anchorage/nodes/"), from: revision + 1) {
    ///     for event in response.events { print(event.kind, event.kv.keyText) }
    /// }
    /// ```
    public func watch(
        _ keys: EtcdKeys,
        from revision: Int64,
        previous: Bool = false
    ) -> AsyncThrowingStream<EtcdWatchResponse, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await self.streamWatch(keys, from: revision, previous: previous) { continuation.yield($0) }
                    continuation.finish(throwing: EtcdError(.noAnswer, "etcd ended the watch"))
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Keeps a view of `keys` current: a snapshot read in pages at one
    /// revision, then the watch's events from the next revision. When the
    /// member goes away the watch resumes on another from the last revision
    /// seen; when that revision was compacted, a new snapshot comes first.
    /// It ends only when the consuming task is cancelled, or with an error
    /// etcd refuses with (such as a failed sign-in).
    public func follow(_ keys: EtcdKeys, pageSize: Int = 1_000) -> AsyncThrowingStream<EtcdFollowUpdate, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var pause = Duration.milliseconds(50)
                var next: Int64?
                while !Task.isCancelled {
                    do {
                        if next == nil {
                            let (kvs, revision) = try await self.rangeAll(keys, pageSize: pageSize)
                            continuation.yield(.snapshot(kvs, revision: revision))
                            next = revision + 1
                        }
                        for try await response in self.watch(keys, from: next!) {
                            pause = .milliseconds(50)
                            guard let last = response.events.last else { continue }
                            next = last.kv.modRevision + 1
                            continuation.yield(.events(response.events))
                        }
                    } catch let error as EtcdError where error.isCompacted {
                        next = nil  // fell behind: read everything again
                    } catch let error as EtcdError where error.code != .refused {
                        // The member went away: try again, another one first.
                        try? await self.configuration.clock.sleep(pause)
                        pause = min(pause * 2, .seconds(2))
                    } catch is CancellationError {
                        break
                    } catch {
                        continuation.finish(throwing: error)
                        return
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Opens a watch on the first member that takes it and hands each
    /// response to `deliver` until the stream ends.
    private func streamWatch(
        _ keys: EtcdKeys,
        from revision: Int64,
        previous: Bool,
        _ deliver: (EtcdWatchResponse) -> Void
    ) async throws {
        var fields = keys.fields
        if revision > 0 { fields["start_revision"] = .int(revision) }
        if previous { fields["prev_kv"] = .bool(true) }
        let body = GatewayBody.object(["create_request": .object(fields)])
        let authorization = try await authorization(for: "/v3/watch")
        var failures: [String] = []
        for step in 0..<endpoints.count {
            let endpoint = endpoints[(startIndex + step) % endpoints.count]
            var request = HTTPClientRequest(url: Self.url(endpoint, "/v3/watch"))
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            if let authorization { request.headers.add(name: "Authorization", value: authorization) }
            request.body = .bytes(ByteBuffer(data: body.data))
            let response: HTTPClientResponse
            do {
                // A watch lasts until cancelled: no deadline.
                response = try await http.execute(request, deadline: .distantFuture)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                let failure = Self.error(error, endpoint: endpoint)
                guard failure.code == .notSent else { throw failure }
                failures.append("\(endpoint.host ?? "?"):\(endpoint.port ?? 0): \(failure.message)")
                continue
            }
            guard response.status == .ok else {
                throw Self.error(response.status, try await response.body.collect(upTo: 1 << 20))
            }
            var lines = LineSplitter()
            do {
                for try await chunk in response.body {
                    for line in try lines.append(chunk) { deliver(try WatchLine.decode(line)) }
                }
            } catch let error as EtcdError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw EtcdError(.noAnswer, "the watch's connection ended: \(String(describing: error).prefix(200))")
            }
            return
        }
        throw EtcdError(.notSent, "no etcd member took the watch (\(failures.joined(separator: "; ")))")
    }
}

/// One line of the watch stream: `{"result": {...}}` or `{"error": {...}}`.
enum WatchLine {
    struct Line: Decodable {
        var result: Result?
        var error: Failure?
    }

    struct Result: Decodable {
        var header: EtcdHeader
        var created: Bool
        var canceled: Bool
        var compactRevision: Int64
        var cancelReason: String?
        var events: [RawEvent]

        enum Keys: String, CodingKey {
            case created, canceled, events
            case compactRevision = "compact_revision"
            case cancelReason = "cancel_reason"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            header = try GatewayHeader(from: decoder).header
            created = try container.decodeIfPresent(Bool.self, forKey: .created) ?? false
            canceled = try container.decodeIfPresent(Bool.self, forKey: .canceled) ?? false
            compactRevision = try container.int64(.compactRevision)
            cancelReason = try container.decodeIfPresent(String.self, forKey: .cancelReason)
            events = try container.decodeIfPresent([RawEvent].self, forKey: .events) ?? []
        }
    }

    struct RawEvent: Decodable {
        var type: String?
        var kv: EtcdKeyValue
        var prevKV: EtcdKeyValue?

        enum CodingKeys: String, CodingKey {
            case type, kv
            case prevKV = "prev_kv"
        }
    }

    struct Failure: Decodable {
        var message: String?
        var grpcCode: Int?

        enum CodingKeys: String, CodingKey {
            case message
            case grpcCode = "grpc_code"
        }
    }

    static func decode(_ line: [UInt8]) throws -> EtcdWatchResponse {
        let parsed: Line
        do {
            parsed = try JSONDecoder().decode(Line.self, from: Data(line))
        } catch {
            throw EtcdError(.noAnswer, "etcd's watch sent a line that is not its JSON")
        }
        if let failure = parsed.error {
            let status = failure.grpcCode ?? EtcdError.Status.unavailable
            let unknown = status == EtcdError.Status.unavailable || status == EtcdError.Status.unknown
            throw EtcdError(unknown ? .noAnswer : .refused, status: status, failure.message ?? "the watch failed")
        }
        guard let result = parsed.result else { throw EtcdError(.noAnswer, "etcd's watch sent an empty line") }
        if result.compactRevision > 0 {
            throw EtcdError(
                .refused,
                status: EtcdError.Status.outOfRange,
                "the revisions before \(result.compactRevision) are compacted: read again, then watch from there"
            )
        }
        if result.canceled {
            throw EtcdError(.refused, "etcd cancelled the watch: \(result.cancelReason ?? "no reason given")")
        }
        return EtcdWatchResponse(
            header: result.header,
            events: result.events.map { raw in
                EtcdEvent(kind: raw.type == "DELETE" ? .delete : .put, kv: raw.kv, previous: raw.prevKV)
            }
        )
    }
}

/// Splits a byte stream into lines, whatever the chunks; a line longer than
/// 64 MiB is an error (etcd's largest request is 1.5 MiB by default).
struct LineSplitter {
    private var pending: [UInt8] = []

    mutating func append(_ chunk: ByteBuffer) throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for byte in chunk.readableBytesView {
            if byte == UInt8(ascii: "\n") {
                if !pending.isEmpty { lines.append(pending) }
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(byte)
            }
        }
        guard pending.count <= 64 << 20 else { throw EtcdError(.noAnswer, "etcd's watch sent a line over 64 MiB") }
        return lines
    }
}
