/// How long `body` takes, in seconds, and what it returns.
func timed<Result>(_ body: () async throws -> Result) async rethrows -> (seconds: Double, result: Result) {
    let start = ContinuousClock.now
    let result = try await body()
    return ((ContinuousClock.now - start).seconds, result)
}

/// How many of `count` items per second `body` handles.
func rate(_ count: Int, _ body: () async throws -> Void) async rethrows -> Double {
    Double(count) / (try await timed(body)).seconds
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
