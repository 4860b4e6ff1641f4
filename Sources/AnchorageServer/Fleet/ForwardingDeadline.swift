import Foundation

/// How long a node waits for the primary's answer to a request it forwards
/// before it answers the client `503 fleetUnavailable` with `Retry-After`
/// (docs/fleet.md, "Forwarded requests"): no forwarded request hangs on a
/// primary that stopped answering (a paused process, a lost network).
///
/// The wait is for the answer to *begin* (its status and headers); a
/// followed feed then streams as long as it lasts. It is what any answer may
/// take — the longer of the lease (a primary that cannot answer within it
/// cannot acknowledge a write anyway) and the replica acknowledgement a write
/// waits for — plus a margin, plus what the request itself asks to be held
/// (a long-poll's `wait`, at most 60 s).
///
/// ```swift
/// let deadline = ForwardingDeadline(leaseTTL: .seconds(10), replicaAcknowledgement: .seconds(5))
/// deadline.duration(path: "/v1/stores/alice/changes", query: "wait=25")   // 37 s
/// ```
struct ForwardingDeadline: Sendable, Hashable {
    /// What any answer may take to begin.
    let base: Duration
    /// What a node adds for the time the request spends on the way.
    static let margin: Duration = .seconds(2)
    /// The longest a request may ask to be held (`wait`).
    static let longestHold: Duration = .seconds(60)

    init(leaseTTL: Duration, replicaAcknowledgement: Duration?) {
        base = max(leaseTTL, replicaAcknowledgement ?? .zero) + Self.margin
    }

    /// The wait for the answer to a request for `path` with query `query`.
    func duration(path: String, query: String?) -> Duration {
        base + held(query: query)
    }

    /// What the request asks to be held: its `wait` parameter, in seconds,
    /// within 0…60 (what the node itself refuses is refused by the primary,
    /// in time).
    private func held(query: String?) -> Duration {
        guard let query else { return .zero }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0] == "wait", let seconds = Int(parts[1]) else { continue }
            return min(.seconds(max(0, seconds)), Self.longestHold)
        }
        return .zero
    }
}
