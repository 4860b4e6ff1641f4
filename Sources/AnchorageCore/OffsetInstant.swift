/// A reading of a clock that counts from an origin of its own: the time
/// since then. The instant of the clocks tests move by hand and of the
/// store's injected clock seen as a Swift `Clock`.
///
/// ```swift
/// let later = OffsetInstant(offset: .seconds(10)).advanced(by: .seconds(5))   // 15 s
/// ```
public struct OffsetInstant: InstantProtocol, Sendable, Hashable, Comparable {
    /// The time since the clock's origin.
    public var offset: Duration

    public init(offset: Duration) {
        self.offset = offset
    }

    public func advanced(by duration: Duration) -> OffsetInstant {
        OffsetInstant(offset: offset + duration)
    }

    public func duration(to other: OffsetInstant) -> Duration {
        other.offset - offset
    }

    public static func < (lhs: OffsetInstant, rhs: OffsetInstant) -> Bool {
        lhs.offset < rhs.offset
    }

    public static func + (lhs: OffsetInstant, rhs: Duration) -> OffsetInstant {
        lhs.advanced(by: rhs)
    }

    public static func - (lhs: OffsetInstant, rhs: Duration) -> OffsetInstant {
        lhs.advanced(by: .zero - rhs)
    }

    /// The time from `rhs` to `lhs`.
    public static func - (lhs: OffsetInstant, rhs: OffsetInstant) -> Duration {
        lhs.offset - rhs.offset
    }
}
