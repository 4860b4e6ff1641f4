import Foundation

extension HKSample {
    /// The same sample saved by `revision` (OBJ-2): a store assigns the
    /// saving app's revision, whatever the caller's object carried.
    /// Correlation members are restamped too; `objects` replaces the
    /// members of a correlation when given.
    package func restamped(_ revision: HKSourceRevision, members: Set<HKSample>? = nil) -> HKSample {
        var fields = self.fields.copy()
        fields.sourceRevision = revision
        guard let correlation = self as? HKCorrelation else { return with(fields) }
        return correlation.with(fields, objects: members ?? Set(correlation.objects.map { $0.restamped(revision) }))
    }

    /// The same correlation with other members: the visible ones, when a
    /// store returns it (CQ-4, OBJ-36).
    package func withMembers(_ members: Set<HKSample>) -> HKSample {
        guard self is HKCorrelation else { return self }
        return restamped(sourceRevision, members: members)
    }
}
