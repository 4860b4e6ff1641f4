public import Testing

/// A trait that wraps each test case of the tests and suites it is given
/// to, never a whole suite: a suite holding a resource while its tests wait
/// for theirs would never finish.
///
/// ```swift
/// public struct MyTrait: TestCaseScoping {
///     public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws { … }
/// }
/// ```
public protocol TestCaseScoping: TestTrait, SuiteTrait, TestScoping {}

extension TestCaseScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }
}
