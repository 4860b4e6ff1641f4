import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

extension ReadingTests {
    @Test(
        "a log opened for reading appends node-local records beside another process's writer when configured to, and refuses otherwise"
    )
    func localRecordsBesideAWriter() async throws {
        try await withTemporaryDirectory { directory in
            // A small map: the writer grows it while the reader appends.
            let child = try AppendingChild(directory: directory, initialMapSize: 256 << 10)
            defer { child.kill() }
            try await child.waitForAcks(10)

            let plain = try EventLog.openForReading(at: directory)
            await #expect {
                try await plain.appendLocalRecords(
                    [[1]],
                    at: Date(),
                    retention: .init(maximumAge: nil, maximumCount: nil)
                )
            } throws: { ($0 as? LogError)?.code == .readOnly }
            await plain.close()

            var configuration = EventLog.Configuration()
            configuration.appendsLocalRecordsWhenReading = true
            let reader = try EventLog.openForReading(at: directory, configuration: configuration)
            #expect(reader.isReadOnly)
            let keep = LocalRecordRetention(maximumAge: nil, maximumCount: nil)
            var keys: [LocalRecordKey] = []
            for index in 0..<200 {
                keys += try await reader.appendLocalRecords(
                    [Array("record \(index)".utf8)],
                    at: Date(),
                    retention: keep
                )
            }
            #expect(keys.map(\.number) == (0..<200).map { UInt64($0) }, "one more than the record before")
            await #expect {
                try await reader.append([.save(id: UUID(), kind: 1, payload: [1])])
            } throws: { ($0 as? LogError)?.code == .readOnly }

            let acks = try await child.killAndCollectAcks()
            await reader.close()
            // The writer's log lost nothing, and the next writer appends after the reader's records.
            let writer = try EventLog.open(at: directory)
            #expect(writer.head.seq >= UInt64(acks.count))
            #expect(try writer.verify().isIntact)
            let next = try await writer.appendLocalRecords([Array("after".utf8)], at: Date(), retention: keep)
            #expect(next.map(\.number) == [200])
            let page = try writer.localRecords(after: nil, from: nil, to: nil, limit: 1_000)
            #expect(
                page.records.map { String(decoding: $0.value, as: UTF8.self) }.prefix(2) == ["record 0", "record 1"]
            )
            #expect(page.records.count == 201)
            await writer.close()
        }
    }
}
