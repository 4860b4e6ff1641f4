import Anchorage
import AnchorageLog
import AnchorageServer
import AsyncHTTPClient
import Foundation
import NIOCore

extension AnchorageBench {
    /// The change feed over loopback HTTP: a consumer pulls every change of
    /// a store as JSON pages, then as one NDJSON stream, against the same
    /// changes read in-process with anchored queries (the baseline).
    func runFeedBenchmarks(work: URL, report: inout Report) async throws {
        let filled = try await filledStore("feed", in: work, for: "feed")
        let (filler, count) = (filled.store, filled.count)
        let node = try await BenchNode.start(at: filled.directory) { $0.maximumPageSize = 10_000 }
        let measured = try await eachRun { run in
            progress("feed run \(run)/\(runs)")
            return (
                inProcess: try await Self.catchUp(filler, expected: count),
                pages: try await Self.pullPages(port: node.port, expected: count),
                streams: try await Self.pullStream(port: node.port, expected: count)
            )
        }
        try await node.stop()
        await filled.discard()
        report.add(.feedPages, anchorage: measured.map(\.pages), baseline: measured.map(\.inProcess))
        report.add(.feedStream, anchorage: measured.map(\.streams), baseline: measured.map(\.inProcess))
    }

    /// Anchored queries in pages of 10,000, in-process: the work the feed
    /// does before it writes JSON.
    static func catchUp(_ store: HKHealthStore, expected: Int) async throws -> Double {
        let (seconds, read) = try await timed { try await StoreBenchmarks.catchUp(store, pageSize: 10_000) }
        guard read == expected else { throw BenchFailure(message: "read \(read) of \(expected) in-process") }
        return Double(read) / seconds
    }

    /// Pages of 10,000 until `hasMore` is false. The consumer finds the
    /// anchor and counts the changes; it does not decode the samples.
    static func pullPages(port: Int, expected: Int) async throws -> Double {
        let (seconds, read) = try await timed {
            var since = ""
            var read = 0
            while true {
                let request = HTTPClientRequest(
                    url: "http://127.0.0.1:\(port)/v1/changes?types=stepCount&limit=10000\(since)"
                )
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
                let body = try await response.body.collect(upTo: 1 << 30)
                var counter = MarkerCounter(#""kind":""#)
                counter.scan(body)
                read += counter.count
                // The page ends with "hasMore":…,"newAnchor":"…"}.
                let tail = String(decoding: body.readableBytesView.suffix(160), as: UTF8.self)
                guard let anchorRange = tail.range(of: "\"newAnchor\":\""),
                    let end = tail[anchorRange.upperBound...].firstIndex(of: "\"")
                else { throw BenchFailure(message: "a page without newAnchor") }
                since = "&since=" + tail[anchorRange.upperBound..<end]
                if tail.contains("\"hasMore\":false") { return read }
            }
        }
        guard read == expected else { throw BenchFailure(message: "pulled \(read) of \(expected) pages") }
        return Double(read) / seconds
    }

    /// One NDJSON stream from the beginning, read until every change has
    /// arrived.
    static func pullStream(port: Int, expected: Int) async throws -> Double {
        let (seconds, read) = try await timed {
            let request = HTTPClientRequest(
                url: "http://127.0.0.1:\(port)/v1/changes?types=stepCount&limit=10000&stream=ndjson"
            )
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(600))
            var counter = MarkerCounter(#"{"added":"#)
            for try await chunk in response.body {
                counter.scan(chunk)
                if counter.count >= expected { break }
            }
            return counter.count
        }
        guard read == expected else { throw BenchFailure(message: "streamed \(read) of \(expected)") }
        return Double(read) / seconds
    }
}

/// Counts occurrences of a marker across chunks, as a consumer that only
/// splits the feed would.
struct MarkerCounter {
    private let marker: [UInt8]
    private var matched = 0
    private(set) var count = 0

    init(_ marker: String) {
        self.marker = Array(marker.utf8)
    }

    mutating func scan(_ buffer: ByteBuffer) {
        buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                if byte == marker[matched] {
                    matched += 1
                    if matched == marker.count {
                        count += 1
                        matched = 0
                    }
                } else {
                    matched = byte == marker[0] ? 1 : 0
                }
            }
        }
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
