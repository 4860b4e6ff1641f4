// The three helpers the generated conformance suite is written with.

/// Compiles only when both metatypes are of one type: `same(A.self, B.self)`
/// with `A` and `B` spelled differently but equal.
func same<T>(_: T.Type, _: T.Type) {}

/// The static type of `value`, exactly: a function reference's full type
/// with its labels' parameter and result types, `throws` and `async`.
func exactType<T>(_ value: T) -> T.Type { T.self }

/// A value of any type, for calls written only to be compiled (they sit in
/// closures that never run).
func placeholder<T>() -> T { fatalError("placeholder() is for code that only has to compile") }
