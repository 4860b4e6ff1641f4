public import Anchorage
import NIOCore

extension FeedEncoding {
    /// ``lines(_:)`` as text, each line ending in its newline: what a
    /// command line prints, byte for byte what `?stream=ndjson` sends.
    ///
    /// ```swift
    /// print(try encoding.linesText(page.changes), terminator: "")
    /// ```
    public mutating func linesText(_ result: ChangeFeedDescriptor.Result) throws -> String {
        String(buffer: try lines(result))
    }

    /// ``page(_:hasMore:)`` as text, without a newline.
    ///
    /// ```swift
    /// print(try encoding.pageText(page.changes, hasMore: page.hasMore))
    /// ```
    public mutating func pageText(_ result: ChangeFeedDescriptor.Result, hasMore: Bool) throws -> String {
        String(buffer: try page(result, hasMore: hasMore))
    }
}
