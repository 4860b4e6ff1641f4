import Anchorage
import AnchorageService
import AnchorageSync
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import Logging
import Synchronization
import Testing

@testable import AnchorageServer

@Suite("The peer scheduler: due stores first, every store with peers once a pass, a bounded number at once")
struct StorePeerSchedulerTests {
    @Test(
        "over 150 stores with peers: a pass visits each once, in pages, never more than the limit at once; a due store goes first; the next pass waits for the interval"
    )
    func passesAndDueStores() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root)
            let names = try (0..<150).map { try StoreName(String(format: "s%03d", $0)) }
            _ = try registry.createStores(names + [try StoreName("nopeer")])
            for name in names {
                try registry.addPeer(to: name, url: URL(string: "http://127.0.0.1:9/x")!, token: nil, direction: .both)
            }
            let clock = TestClock()
            var configuration = NodeConfiguration()
            configuration.clock = StoreClock(clock)
            configuration.peerSyncInterval = .seconds(60)
            configuration.maximumConcurrentPeerRounds = 3
            let client = try HTTPPeerTransport.client(trustRoots: nil)
            let scheduler = StorePeerScheduler(
                registry: registry,
                client: client,
                configuration: configuration,
                logger: Logger(label: "test")
            )
            let opened = Mutex<[StoreName]>([])
            scheduler.open { name, _ in opened.withLock { $0.append(name) } }

            /// Takes stores until the scheduler has none, then runs their rounds.
            func step() async -> [StoreName] {
                var taken: [StoreName] = []
                while let name = scheduler.nextStore() { taken.append(name) }
                #expect(taken.count <= 3, "at most the limit at once")
                for name in taken { await scheduler.round(name) }
                return taken
            }

            var visited: [StoreName] = []
            var first = true
            while true {
                let taken = await step()
                if taken.isEmpty { break }
                if first {
                    // A store whose log moved goes before the pass's next ones.
                    scheduler.markDue(names[140])
                    first = false
                    visited += taken
                    let next = await step()
                    #expect(next.first == names[140])
                    visited += next
                    continue
                }
                visited += taken
            }
            #expect(Set(visited) == Set(names), "every store with peers, none without")
            #expect(visited.count == names.count + 1, "each once a pass, the due one once more")
            #expect(opened.withLock { $0 } == visited)
            #expect(scheduler.nextStore() == nil, "no pass before the interval")
            clock.advance(by: .seconds(60))
            #expect(await step().count == 3, "the next pass starts")
            try await client.shutdown()
        }
    }
}
