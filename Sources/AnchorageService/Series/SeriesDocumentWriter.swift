import Foundation

/// Collects a document's bytes and hands them on in chunks of about
/// 64 KB, so that a series document is written as it is made: what a
/// request holds at once is one chunk and the one series being read, not
/// the whole document.
///
/// ```swift
/// var out = SeriesDocumentWriter()
/// try await out.append("{\"heartbeats\":[", emit)
/// try await out.finish(emit)
/// ```
public struct SeriesDocumentWriter: Sendable {
    /// What receives each chunk: a response body, standard output.
    public typealias Emit = ([UInt8]) async throws -> Void

    /// The size at which a chunk is handed on.
    static let chunk = 64 * 1_024

    private var buffer: [UInt8] = []

    public init() {
        buffer.reserveCapacity(Self.chunk + 1_024)
    }

    mutating func append(_ text: String, _ emit: Emit) async throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.chunk { try await flush(emit) }
    }

    mutating func append(_ bytes: some Sequence<UInt8>, _ emit: Emit) async throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.chunk { try await flush(emit) }
    }

    /// Hands on what is left.
    mutating func finish(_ emit: Emit) async throws {
        if !buffer.isEmpty { try await flush(emit) }
    }

    private mutating func flush(_ emit: Emit) async throws {
        try await emit(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
