import AnchorageServer
import Foundation
import Synchronization

extension AnchorageBench {
    /// Latencies of posts sent at a steady rate.
    struct SteadyLoad {
        /// The median and 99th percentile, in ms.
        var median: Double
        var tail: Double
    }

    /// Sends `rate` posts a second for `seconds`, open loop: each post goes
    /// at its scheduled time whether or not earlier ones were answered, and
    /// its latency counts from that time (so a stall delays every post
    /// scheduled during it, as it delays real clients — no coordinated
    /// omission). Throws if more than `maximumInFlight` posts are
    /// unanswered at once: the node does not keep up with the rate.
    static func steadyLoad(
        rate: Int,
        seconds: Int,
        maximumInFlight: Int = 2_000,
        post: @escaping @Sendable (_ number: Int) async throws -> Void
    ) async throws -> SteadyLoad {
        let clock = ContinuousClock()
        let start = clock.now + .milliseconds(100)
        let interval = Duration.seconds(1) / rate
        let latencies = Latencies()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<(rate * seconds) {
                let scheduled = start + interval * number
                try await clock.sleep(until: scheduled)
                let waiting = latencies.started()
                guard waiting <= maximumInFlight else {
                    throw BenchFailure(message: "\(waiting) posts unanswered at \(rate)/s: the node does not keep up")
                }
                group.addTask {
                    try await post(number)
                    let latency = (clock.now - scheduled).seconds * 1_000
                    latencies.finished(latency)
                }
            }
            try await group.waitForAll()
        }
        let measured = latencies.all
        return SteadyLoad(median: percentile(measured, 0.5), tail: percentile(measured, 0.99))
    }
}

/// The latencies of a steady load's posts, and how many are unanswered.
private final class Latencies: Sendable {
    private let state = Mutex<(values: [Double], inFlight: Int)>(([], 0))

    /// Counts a post sent; returns how many are unanswered now.
    func started() -> Int {
        state.withLock { state in
            state.inFlight += 1
            return state.inFlight
        }
    }

    func finished(_ latency: Double) {
        state.withLock { state in
            state.inFlight -= 1
            state.values.append(latency)
        }
    }

    var all: [Double] { state.withLock { $0.values } }
}
