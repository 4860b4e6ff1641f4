public import AnchorageLog
import Crypto
import Foundation

/// A data key wrapped (encrypted and authenticated) by a provider's
/// wrapping key: what a node's registry keeps instead of the key.
///
/// ```swift
/// let wrapped = try await provider.wrap(DataKey.generate())
/// let key = try await provider.unwrap(wrapped)
/// ```
public struct WrappedKey: Sendable, Hashable, Codable {
    /// The data key's id.
    public let keyID: KeyID
    /// The data key's version.
    public let version: UInt16
    /// The wrapping key that wrapped it, as its provider names it.
    public let wrappingKeyID: String
    /// The wrapped bytes: a 12-byte nonce, the 32-byte key encrypted with
    /// AES-256-GCM, the 16-byte tag.
    public let bytes: [UInt8]

    public init(keyID: KeyID, version: UInt16, wrappingKeyID: String, bytes: [UInt8]) {
        self.keyID = keyID
        self.version = version
        self.wrappingKeyID = wrappingKeyID
        self.bytes = bytes
    }

    /// The size of ``bytes``.
    public static let wrappedSize = 12 + DataKey.size + 16

    /// What the wrap authenticates besides the key: "anchorage dek 1", the
    /// key id, the version and the wrapping key's id, so a wrapped key
    /// cannot be passed off as another key or another version.
    static func associatedData(keyID: KeyID, version: UInt16, wrappingKeyID: String) -> [UInt8] {
        Array("anchorage dek 1".utf8) + withUnsafeBytes(of: keyID.uuid) { Array($0) }
            + [UInt8(version >> 8), UInt8(version & 0xFF)] + Array(wrappingKeyID.utf8)
    }

    /// The data key this wraps, from its unwrapped bytes.
    func dataKey(material: [UInt8]) throws(KeyError) -> DataKey {
        do {
            return try DataKey(id: keyID, version: version, material: SymmetricKey(data: material))
        } catch {
            throw KeyError(.unwrapFailed, "the wrapped data key \(keyID) is not a data key: \(error.message)")
        }
    }

    var associatedData: [UInt8] {
        Self.associatedData(keyID: keyID, version: version, wrappingKeyID: wrappingKeyID)
    }
}

/// Where a node's data keys are wrapped: a key file, or a PKCS#11 token.
///
/// A provider holds wrapping keys and never hands them out: it wraps a data
/// key for the registry to keep, and unwraps it when a store opens. Calls
/// may block on a device or the network; they are asynchronous and each
/// ends within the provider's time-out with
/// ``KeyError/Code/providerUnavailable`` rather than hang.
///
/// ```swift
/// let provider = try KeyFileProvider(url: URL(filePath: "/var/lib/anchorage/wrapping.keys"))
/// let wrapped = try await provider.wrap(DataKey.generate())
/// ```
public protocol KeyProvider: Sendable {
    /// Names the provider in messages and logs (a file's path, a token's
    /// label); never a secret.
    var name: String { get }
    /// Wraps `key` with the current wrapping key.
    func wrap(_ key: DataKey) async throws(KeyError) -> WrappedKey
    /// Unwraps a key this provider wrapped.
    ///
    /// - Throws: ``KeyError`` `wrappingKeyUnavailable` when the wrapping
    ///   key it names is gone, `unwrapFailed` when the bytes were changed,
    ///   `providerUnavailable` when the provider cannot be reached.
    func unwrap(_ wrapped: WrappedKey) async throws(KeyError) -> DataKey
    /// The id of the wrapping key ``wrap(_:)`` uses now.
    func currentWrappingKeyID() async throws(KeyError) -> String
}
