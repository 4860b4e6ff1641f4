/// NSObject's class tests, for HealthKit's classes, which are NSObjects on
/// Apple's platforms and plain Swift classes here: code that asks
/// `sample.isKind(of: HKQuantitySample.self)` keeps working.
package enum ClassKind {
    /// Whether `object`'s class is `aClass` or inherits from it.
    package static func isKind(_ object: AnyObject, of aClass: AnyClass) -> Bool {
        var current: AnyClass? = type(of: object)
        while let candidate = current {
            if candidate == aClass { return true }
            current = _getSuperclass(candidate)
        }
        return false
    }

    /// Whether `object`'s class is exactly `aClass`.
    package static func isMember(_ object: AnyObject, of aClass: AnyClass) -> Bool {
        type(of: object) == aClass
    }
}

extension HKObject {
    /// Whether the object is an instance of `aClass` or of a subclass of it,
    /// as NSObject answers.
    ///
    /// ```swift
    /// if sample.isKind(of: HKQuantitySample.self) { … }
    /// ```
    public func isKind(of aClass: AnyClass) -> Bool { ClassKind.isKind(self, of: aClass) }

    /// Whether the object is an instance of exactly `aClass`, as NSObject answers.
    public func isMember(of aClass: AnyClass) -> Bool { ClassKind.isMember(self, of: aClass) }
}

extension HKObjectType {
    /// Whether the type is an instance of `aClass` or of a subclass of it,
    /// as NSObject answers.
    ///
    /// ```swift
    /// if type.isKind(of: HKQuantityType.self) { … }
    /// ```
    public func isKind(of aClass: AnyClass) -> Bool { ClassKind.isKind(self, of: aClass) }

    /// Whether the type is an instance of exactly `aClass`, as NSObject answers.
    public func isMember(of aClass: AnyClass) -> Bool { ClassKind.isMember(self, of: aClass) }
}
