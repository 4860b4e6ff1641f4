public import Anchorage
import Foundation
public import NIOCore

extension StatisticsTable {
    /// The HTTP answer (`GET /v1/statistics`, docs/http-api.md):
    /// `{"interval":…,"options":[…],"statistics":[<row>…],"timeZone":…,"type":…,"unit":…}`
    /// with sorted keys, absent values left out, dates as ISO 8601 text in
    /// UTC; written into one buffer, rows by hand, never copied after.
    ///
    /// ```swift
    /// let body = try request.table(from: store).json(buckets: count)
    /// ```
    ///
    /// - Parameter buckets: how many rows to reserve room for.
    public func json(buckets: Int = 0) throws -> ByteBuffer {
        let frame = try CanonicalJSON.encoder().encode(
            Frame(
                type: type.identifier,
                unit: unit.unitString,
                options: Self.names(of: options),
                interval: intervalText,
                timeZone: timeZoneText,
                statistics: []
            )
        )
        // The rows are written by hand into the place of the empty list.
        guard let place = frame.range(of: Data("\"statistics\":[]".utf8)) else {
            preconditionFailure("a frame with sorted keys holds \"statistics\":[]")
        }
        let opening = place.upperBound - 1
        var answer = ByteBuffer()
        // About 80 bytes a row (two dates and a value): one allocation, no regrowth.
        answer.reserveCapacity(frame.count + 96 * buckets)
        answer.writeBytes(frame[..<opening])
        var bytes: [UInt8] = []
        var first = true
        forEachRow { row in
            bytes.removeAll(keepingCapacity: true)
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            row.appendJSON(to: &bytes)
            answer.writeBytes(bytes)
        }
        answer.writeBytes(frame[opening...])
        return answer
    }

    /// The answer's members, its rows written apart.
    ///
    /// ```swift
    /// let expected = try CanonicalJSON.encoder().encode(StatisticsTable.Frame(type: …, statistics: table.rows))
    /// ```
    public struct Frame: Encodable {
        public let type: String
        public let unit: String
        public let options: [String]
        public let interval: String
        public let timeZone: String
        public let statistics: [StatisticsRow]

        /// The members as given.
        public init(
            type: String,
            unit: String,
            options: [String],
            interval: String,
            timeZone: String,
            statistics: [StatisticsRow]
        ) {
            self.type = type
            self.unit = unit
            self.options = options
            self.interval = interval
            self.timeZone = timeZone
            self.statistics = statistics
        }
    }

    /// The options' names as the HTTP answer lists them.
    ///
    /// ```swift
    /// StatisticsTable.names(of: [.cumulativeSum, .separateBySource])   // ["sum", "separateBySource"]
    /// ```
    public static func names(of options: HKStatisticsOptions) -> [String] {
        StatisticsValues.columns(of: options).map(\.name)
            + (options.contains(.separateBySource) ? ["separateBySource"] : [])
    }
}
