import AnchorageLog
import AnchorageSync
import AnchorageTesting
import Testing

@testable import AnchorageServer

@Suite("Webhook deliveries back off as replication does")
struct WebhookBackoffTests {
    @Test("from the initial wait doubling to the most, each drawn from its upper 40 %", arguments: testSeeds([5, 8]))
    func doubling(seed: UInt64) {
        var configuration = NodeConfiguration()
        configuration.webhookInitialBackoff = .seconds(1)
        configuration.webhookMaximumBackoff = .seconds(300)
        var backoff = WebhookDeliverer.backoff(configuration)
        var random = SeededGenerator(seed: seed)
        for failure in 0..<12 {
            let ceiling = min(Double(1 << failure), 300)
            let wait = backoff.next(using: &random).timeInterval
            #expect(wait >= ceiling * 0.6 - 1e-9 && wait <= ceiling + 1e-9, "failure \(failure + 1): \(wait) s")
        }
        backoff.reset()
        #expect(backoff.next(using: &random).timeInterval <= 1)
    }
}
