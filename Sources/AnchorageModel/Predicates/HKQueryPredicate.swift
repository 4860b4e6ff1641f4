/// The `NSPredicate` that `HKQuery.predicateFor…` return: it carries an
/// ``ObjectPredicate`` and evaluates it, so it combines with
/// `NSCompoundPredicate` as in HealthKit.
public final class HKQueryPredicate: NSPredicate {
    /// The typed predicate.
    public let objectPredicate: ObjectPredicate

    /// Wraps a typed predicate.
    public init(_ predicate: ObjectPredicate) {
        self.objectPredicate = predicate
        super.init(value: true)
    }

    public required init?(coder: NSCoder) {
        nil
    }

    public override func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        if let activity = object as? HKWorkoutActivity { return objectPredicate.evaluate(activity) }
        if let medication = object as? HKUserAnnotatedMedication { return objectPredicate.evaluate(medication) }
        guard let object = object as? HKObject else { return false }
        return objectPredicate.evaluate(object)
    }

    public override var description: String {
        "HKQueryPredicate(\(objectPredicate))"
    }
}

/// What `HKQuery.predicateForWorkouts(activityPredicate:)` returns: the
/// activity predicate as given, converted when a query runs (so a predicate
/// the store cannot evaluate fails the query with `PRED-14`, as any other).
package final class WorkoutActivitiesPredicate: NSPredicate {
    package let activityPredicate: NSPredicate

    package init(_ activityPredicate: NSPredicate) {
        self.activityPredicate = activityPredicate
        super.init(value: true)
    }

    package required init?(coder: NSCoder) {
        nil
    }

    package override func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
        guard let object = object as? HKObject, let typed = try? ObjectPredicate(self) else { return false }
        return typed.evaluate(object)
    }
}

extension ObjectPredicate {
    /// The typed form of an `NSPredicate` built from `HKQuery.predicateFor…`
    /// and `NSCompoundPredicate`.
    ///
    /// ```swift
    /// let both = NSCompoundPredicate(andPredicateWithSubpredicates: [byDate, bySource])
    /// let typed = try ObjectPredicate(both)
    /// ```
    ///
    /// - Throws: ``HKError`` (`PRED-14`) for any other predicate (format
    ///   strings and blocks cannot be evaluated by the store; use
    ///   ``ObjectPredicate/constant(_:)`` for always and never).
    public init(_ predicate: NSPredicate) throws(HKError) {
        self = try Self.converting(predicate, depth: 0)
    }

    private static func converting(_ predicate: NSPredicate, depth: Int) throws(HKError) -> ObjectPredicate {
        guard depth < 64 else { throw .invalid("PRED-14", "the predicate is nested more than 64 levels deep") }
        if let typed = predicate as? HKQueryPredicate { return typed.objectPredicate }
        if let wrapper = predicate as? WorkoutActivitiesPredicate {
            return .anyActivity(try converting(wrapper.activityPredicate, depth: depth + 1))
        }
        if let compound = predicate as? NSCompoundPredicate {
            var parts: [ObjectPredicate] = []
            for part in compound.subpredicates {
                parts.append(try converting(part, depth: depth + 1))
            }
            switch compound.compoundPredicateType {
            case .and: return .and(parts)
            case .or: return .or(parts)
            case .not:
                guard parts.count == 1 else {
                    throw .invalid("PRED-14", "a NOT predicate needs exactly one subpredicate")
                }
                return .not(parts[0])
            @unknown default:
                throw .invalid("PRED-14", "unknown compound predicate type")
            }
        }
        throw .invalid(
            "PRED-14",
            "only predicates from HKQuery.predicateFor… and NSCompoundPredicates of them are supported"
        )
    }
}
