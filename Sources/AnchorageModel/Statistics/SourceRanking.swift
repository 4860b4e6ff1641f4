/// The order in which sources count when statistics merge them (ST-22..27).
///
/// From the top: samples the user entered by hand, whatever app saved them
/// (ST-24.6); then the sources of the type's priority list, in its order
/// (set by the owner with ``HKHealthStore/setSourcePriority(_:for:)``);
/// then every other source, the newest first (ST-23, ST-27). A source's age
/// is the origin time of the earliest entry that saved a sample of the type
/// from it, so every peer holding the same entries ranks sources alike;
/// equal ages fall back to bundle identifier order.
package struct SourceRanking: Sendable {
    /// A position in the order; smaller counts first.
    package struct Rank: Comparable, Hashable, Sendable {
        package var tier: Int
        package var position: Int
        package var newness: Int64
        package var bundle: String

        package static func < (lhs: Rank, rhs: Rank) -> Bool {
            (lhs.tier, lhs.position, lhs.newness, lhs.bundle) < (rhs.tier, rhs.position, rhs.newness, rhs.bundle)
        }
    }

    /// The owner's list, highest priority first.
    package let priority: [String]
    /// Each source's first save of the type (ns since 1970, origin time).
    package let firstSeen: [String: Int64]
    private let positions: [String: Int]

    package init(priority: [String] = [], firstSeen: [String: Int64] = [:]) {
        self.priority = priority
        self.firstSeen = firstSeen
        var positions: [String: Int] = [:]
        for (position, bundle) in priority.enumerated() where positions[bundle] == nil {
            positions[bundle] = position
        }
        self.positions = positions
    }

    /// Each of `ranks`' position among the distinct ones, highest first
    /// from 0: equal ranks share a position. What a ``StatisticsSample``
    /// carries as its rank.
    package static func positions(of ranks: [Rank]) -> [UInt32] {
        let order = ranks.indices.sorted { ranks[$0] < ranks[$1] }
        var positions = [UInt32](repeating: 0, count: ranks.count)
        var position: UInt32 = 0
        for (index, rank) in order.enumerated() {
            if index > 0 && ranks[order[index - 1]] != ranks[rank] { position += 1 }
            positions[rank] = position
        }
        return positions
    }

    /// The rank of a sample from `bundle`, entered by hand or not.
    package func rank(bundle: String, userEntered: Bool) -> Rank {
        if userEntered { return Rank(tier: 0, position: 0, newness: 0, bundle: "") }
        if let position = positions[bundle] { return Rank(tier: 1, position: position, newness: 0, bundle: "") }
        // Newer first: a later first save gives a smaller newness.
        let seen = firstSeen[bundle] ?? .max
        return Rank(tier: 2, position: 0, newness: seen == .min ? .max : -seen, bundle: bundle)
    }
}
