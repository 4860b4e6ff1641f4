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
        let (node, port, serving) = try await Self.startNode(at: filled.directory) {
            $0.maximumPageSize = 10_000
        }

        var inProcess: [Double] = []
        var pages: [Double] = []
        var streams: [Double] = []
        for run in 1...runs {
            progress("feed run \(run)/\(runs)")
            inProcess.append(try await Self.catchUp(filler, expected: count))
            pages.append(try await Self.pullPages(port: port, expected: count))
            streams.append(try await Self.pullStream(port: port, expected: count))
        }
        await node.stop()
        try await serving.value
        await node.close()
        await filled.discard()
        report.add(
            name: "change feed over loopback HTTP, JSON pages of 10,000 (vs in-process anchored queries)",
            unit: "entries/s",
            anchorage: pages,
            baseline: inProcess,
            goal: .valueAtLeast(100_000)
        )
        report.add(
            name: "change feed over loopback HTTP, one NDJSON stream (vs in-process anchored queries)",
            unit: "entries/s",
            anchorage: streams,
            baseline: inProcess,
            goal: .valueAtLeast(100_000)
        )
    }

    /// Anchored queries in pages of 10,000, in-process: the work the feed
    /// does before it writes JSON.
    static func catchUp(_ store: HKHealthStore, expected: Int) async throws -> Double {
        let start = ContinuousClock.now
        var anchor: HKQueryAnchor?
        var read = 0
        while true {
            let page = try await HKAnchoredObjectQueryDescriptor(
                predicates: [.quantitySample(type: StoreBenchmarks.steps)],
                anchor: anchor,
                limit: 10_000
            ).result(for: store)
            read += page.addedSamples.count
            anchor = page.newAnchor
            if page.addedSamples.count < 10_000 { break }
        }
        guard read == expected else { throw BenchFailure(message: "read \(read) of \(expected) in-process") }
        return Double(read) / (ContinuousClock.now - start).seconds
    }

    /// Pages of 10,000 until `hasMore` is false. The consumer finds the
    /// anchor and counts the changes; it does not decode the samples.
    static func pullPages(port: Int, expected: Int) async throws -> Double {
        let start = ContinuousClock.now
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
            if tail.contains("\"hasMore\":false") { break }
        }
        guard read == expected else { throw BenchFailure(message: "pulled \(read) of \(expected) pages") }
        return Double(read) / (ContinuousClock.now - start).seconds
    }

    /// One NDJSON stream from the beginning, read until every change has
    /// arrived.
    static func pullStream(port: Int, expected: Int) async throws -> Double {
        let start = ContinuousClock.now
        let request = HTTPClientRequest(
            url: "http://127.0.0.1:\(port)/v1/changes?types=stepCount&limit=10000&stream=ndjson"
        )
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(600))
        var counter = MarkerCounter(#"{"added":"#)
        for try await chunk in response.body {
            counter.scan(chunk)
            if counter.count >= expected { break }
        }
        let read = counter.count
        guard read == expected else { throw BenchFailure(message: "streamed \(read) of \(expected)") }
        return Double(read) / (ContinuousClock.now - start).seconds
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
