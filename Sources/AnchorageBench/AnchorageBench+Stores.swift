import Anchorage
import Foundation

/// A store a suite reads: up to a million step samples in a directory of
/// the work folder.
struct FilledStore {
    let store: HKHealthStore
    let directory: URL
    /// How many samples it holds.
    let count: Int

    /// Closes the store and removes its directory.
    func discard() async {
        await store.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

extension AnchorageBench {
    /// Saves the suite's step samples (at most a million) into `work/name`.
    func filledStore(_ name: String, in work: URL, for suite: String) async throws -> FilledStore {
        let count = min(samples, 1_000_000)
        let directory = work.appendingPathComponent(name)
        progress("\(suite): saving \(count) step samples")
        let store = try await StoreBenchmarks.filledStore(at: directory, samples: count)
        return FilledStore(store: store, directory: directory, count: count)
    }
}
