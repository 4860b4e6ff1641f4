import AnchorageLog

/// How fast a request body must arrive: all of it within a deadline, and,
/// after a grace period, at a minimum rate (docs/http-api.md, "Limits").
///
/// A body whose head arrived at `start` and of which `n` bytes have
/// arrived is cut off at the earlier of `start + timeout` and
/// `start + gracePeriod + n / minimumRate`: each second after the grace
/// period must bring `minimumRate` more bytes.
struct RequestBodyPace: Sendable {
    /// The longest a whole body may take.
    var timeout: Duration
    /// Bytes per second; 0 for no minimum.
    var minimumRate: Int
    /// The time before the minimum rate applies.
    var gracePeriod: Duration

    init(_ configuration: NodeConfiguration) {
        timeout = configuration.bodyTimeout
        minimumRate = configuration.minimumBodyRate
        gracePeriod = configuration.bodyRateGracePeriod
    }

    /// When a body that began at `start` (a reading of the node's clock),
    /// with `received` bytes so far, is cut off, and which rule cuts it.
    func cutOff(start: Duration, received: Int) -> (at: Duration, cause: RequestBodyTimeout.Cause) {
        let deadline = start + timeout
        guard minimumRate > 0 else { return (deadline, .deadline) }
        let allowance = min(Int64(received), Int64.max / 1_000_000_000) * 1_000_000_000 / Int64(minimumRate)
        let rate = start + gracePeriod + .nanoseconds(allowance)
        return rate < deadline ? (rate, .rate) : (deadline, .deadline)
    }
}

/// A request body that did not arrive in time: `408 requestTimeout`, and
/// the node closes the connection.
struct RequestBodyTimeout: Error, CustomStringConvertible {
    enum Cause: Sendable {
        /// The whole body took longer than the deadline.
        case deadline
        /// The body arrived slower than the minimum rate.
        case rate
    }

    let cause: Cause
    let pace: RequestBodyPace

    var description: String {
        switch cause {
        case .deadline:
            "the request body did not arrive within \(Self.seconds(pace.timeout)); "
                + "send it faster, or in smaller requests"
        case .rate:
            "the request body arrived slower than \(pace.minimumRate) bytes/s "
                + "(after the first \(Self.seconds(pace.gracePeriod))); send it faster"
        }
    }

    /// `30 s`, `1.5 s`.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard attoseconds != 0 else { return "\(seconds) s" }
        return "\(duration.timeInterval) s"
    }
}
