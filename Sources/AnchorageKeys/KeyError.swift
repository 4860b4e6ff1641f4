/// An error of a key provider or of the keys a node keeps: a key missing,
/// shredded or wrapped by another wrapping key, a provider that cannot be
/// reached, a key file that is not safe to use.
///
/// ```swift
/// do {
///     let key = try await provider.unwrap(wrapped)
/// } catch KeyError.Code.providerUnavailable {
///     // the HSM did not answer: retry later, nothing was changed
/// }
/// ```
///
/// Messages name key ids, stores and files, never key bytes.
public struct KeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a value you can match in `catch`.
    public let code: Code
    /// A sentence describing the error and what to do about it.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}

extension KeyError {
    /// The kind of a ``KeyError``.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String

        private init(_ name: String) { self.name = name }

        public var description: String { name }

        /// The provider could not be reached or did not answer in time (an
        /// HSM offline, a module that cannot be loaded, a token not present).
        public static let providerUnavailable = Code("providerUnavailable")
        /// The wrapped key names a wrapping key the provider does not hold
        /// (retired and destroyed, or another node's).
        public static let wrappingKeyUnavailable = Code("wrappingKeyUnavailable")
        /// A wrapped key that does not unwrap: changed, or bound to another
        /// key id or version.
        public static let unwrapFailed = Code("unwrapFailed")
        /// No data key is recorded for the store or key id.
        public static let keyMissing = Code("keyMissing")
        /// The data key was destroyed on purpose (crypto-shredding): what it
        /// sealed can never be read again.
        public static let keyShredded = Code("keyShredded")
        /// A key file that cannot be used safely: readable by others, not in
        /// the documented form, or not a file.
        public static let invalidKeyFile = Code("invalidKeyFile")
        /// A PKCS#11 call failed; the message names the function and its
        /// return value (CKR_…).
        public static let tokenError = Code("tokenError")
        /// An argument outside what the call accepts.
        public static let invalidArgument = Code("invalidArgument")

        /// Lets `catch KeyError.Code.keyShredded` match a ``KeyError`` with that code.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? KeyError)?.code == pattern
        }
    }
}
