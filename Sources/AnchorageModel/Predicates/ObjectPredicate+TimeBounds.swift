/// Bounds on a sample's dates that a predicate implies, so a store can scan
/// a date index instead of every sample. Bounds are conservative: every
/// matching sample lies within them; not every sample within them matches.
public struct TimeBounds: Sendable, Hashable {
    /// Matching samples start at or after this date.
    public var startFrom: Date?
    /// Matching samples start before this date.
    public var startBefore: Date?
    /// Matching samples end at or after this date.
    public var endFrom: Date?
    /// Matching samples end before this date.
    public var endBefore: Date?

    /// No bound at all.
    public static let unbounded = TimeBounds()

    /// Bounds both hold (AND): the tighter of each.
    package func intersection(_ other: TimeBounds) -> TimeBounds {
        TimeBounds(
            startFrom: Self.later(startFrom, other.startFrom),
            startBefore: Self.earlier(startBefore, other.startBefore),
            endFrom: Self.later(endFrom, other.endFrom),
            endBefore: Self.earlier(endBefore, other.endBefore)
        )
    }

    /// Bounds either holds (OR): the looser of each, dropped if one side has none.
    package func union(_ other: TimeBounds) -> TimeBounds {
        TimeBounds(
            startFrom: Self.bothOr(startFrom, other.startFrom, min),
            startBefore: Self.bothOr(startBefore, other.startBefore, max),
            endFrom: Self.bothOr(endFrom, other.endFrom, min),
            endBefore: Self.bothOr(endBefore, other.endBefore, max)
        )
    }

    private static func later(_ a: Date?, _ b: Date?) -> Date? {
        guard let a else { return b }
        guard let b else { return a }
        return max(a, b)
    }

    private static func earlier(_ a: Date?, _ b: Date?) -> Date? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }

    private static func bothOr(_ a: Date?, _ b: Date?, _ pick: (Date, Date) -> Date) -> Date? {
        guard let a, let b else { return nil }
        return pick(a, b)
    }
}

extension ObjectPredicate {
    /// The date bounds every matching sample satisfies.
    ///
    /// ```swift
    /// let bounds = ObjectPredicate.dateRange(start: a, end: b, options: .strictStartDate).timeBounds
    /// // bounds.startFrom == a, bounds.startBefore == b
    /// ```
    public var timeBounds: TimeBounds {
        switch self {
        case .dateRange(let start, let end, let options):
            var bounds = TimeBounds()
            let strictStart = options.contains(.strictStartDate)
            let strictEnd = options.contains(.strictEndDate)
            if !strictStart && !strictEnd {
                bounds.endFrom = start
                bounds.startBefore = end
            }
            if strictStart {
                bounds.startFrom = start
                bounds.startBefore = end
            }
            if strictEnd {
                bounds.endFrom = start
                bounds.endBefore = end
            }
            return bounds
        case .and(let predicates):
            return predicates.reduce(TimeBounds.unbounded) { $0.intersection($1.timeBounds) }
        case .or(let predicates):
            guard let first = predicates.first else { return .unbounded }
            return predicates.dropFirst().reduce(first.timeBounds) { $0.union($1.timeBounds) }
        default:
            return .unbounded
        }
    }
}
