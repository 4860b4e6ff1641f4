import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

@Suite("The writer lets go of the store's mapped pages", .ownThread)
struct MappedPagesReleaseTests {
    static func configuration(release: Duration?) -> EventLog.Configuration {
        var configuration = fastConfiguration
        configuration.mappedPagesRelease = release
        configuration.writerIdleTimeout = nil
        return configuration
    }

    /// Appends 8 MB, reads it all, then appends twice: the writer's release
    /// after the first of those commits is done when the second returns.
    static func residentAfterReadingAndTwoCommits(release: Duration?) async throws -> (read: Int, after: Int) {
        try await withTemporaryLog(configuration: configuration(release: release)) { log, directory in
            let payload = [UInt8](repeating: 3, count: 800)
            for _ in 0..<10 {
                _ = try await log.append(
                    (0..<1_000).map { _ in .save(id: UUID(), kind: EntryKind(rawValue: 1), payload: payload) }
                )
            }
            #expect(try readAll(log).count == 10_000)
            let file = directory.appendingPathComponent("data.mdb").path
            let read = try #require(try mappedResidentBytes(of: file))
            for _ in 0..<2 { _ = try await log.append([.save(id: UUID(), kind: EntryKind(rawValue: 1), payload: [1])]) }
            let after = try #require(try mappedResidentBytes(of: file))
            #expect(try readAll(log).count == 10_002, "nothing is lost")
            return (read, after)
        }
    }

    @Test("after a commit, the pages a read mapped leave this process's memory; the entries all read back")
    func releasesAfterCommits() async throws {
        let (read, after) = try await Self.residentAfterReadingAndTwoCommits(release: .zero)
        #expect(read > 6 << 20, "reading 8 MB of entries mapped them: \(read) bytes")
        #expect(after < 1 << 20, "\(after) bytes still mapped after the release")
    }

    @Test("without a release interval the pages stay mapped until the store closes")
    func keepsWithoutInterval() async throws {
        let (read, after) = try await Self.residentAfterReadingAndTwoCommits(release: nil)
        #expect(read > 6 << 20)
        #expect(after > 6 << 20, "\(after) bytes mapped")
    }
}
