import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

@Suite("Closing a log whose commits leave their meta page unflushed")
struct CloseFlushTests {
    static func configuration(_ durability: EventLog.Durability, idle: Duration?) -> EventLog.Configuration {
        var configuration = EventLog.Configuration()
        configuration.durability = durability
        configuration.writerIdleTimeout = idle
        return configuration
    }

    @Test(
        "noMetaSync: close flushes the store once, whether the writer's thread runs or has parked; full and none do not; every entry reads back",
        arguments: [
            (EventLog.Durability.noMetaSync, 1), (.full, 0), (.none, 0),
        ] as [(EventLog.Durability, Int)]
    )
    func flushesAtClose(durability: EventLog.Durability, flushes: Int) async throws {
        for idle in [nil, Duration.milliseconds(20)] {
            try await withTemporaryDirectory { directory in
                let log = try EventLog.open(at: directory, configuration: Self.configuration(durability, idle: idle))
                var generator = SeededGenerator(seed: 7)
                for _ in 0..<5 { try await log.append((0..<4).map { _ in LogEvent.random(using: &generator) }) }
                if idle != nil {
                    try await waitUntil("the idle writer's thread ends") { log.writerThreadState?.running == false }
                }
                await log.close()
                #expect(
                    log.counters.storeFlushesAtClose == flushes,
                    "durability \(durability), idle \(String(describing: idle))"
                )
                let reopened = try EventLog.open(at: directory, configuration: Self.configuration(.full, idle: nil))
                #expect(try readAll(reopened).count == 20)
                await reopened.close()
            }
        }
    }
}
