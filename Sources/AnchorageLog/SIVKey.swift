import CAEAD
import Crypto

/// An AES-256-GCM-SIV key (RFC 8452) ready to seal and open in place: one
/// BoringSSL AEAD context, built once, used from any thread.
///
/// swift-crypto's `AES.GCM._SIV` builds a context and several `Data`
/// values per call; the log seals or opens on every entry and projection
/// row, so it keeps a context per key and works on the caller's buffers.
/// The output is the same bytes (`ciphertext ‖ tag`); the known-answer
/// tests hold both to vectors computed outside Swift.
///
/// ```swift
/// let key = SIVKey(SymmetricKey(size: .bits256))
/// let written = key.seal(plain, nonce: nonce, associatedData: ad, into: output)
/// let opened = key.open(output[..<written], nonce: nonce, associatedData: ad, into: back)
/// ```
final class SIVKey: @unchecked Sendable {
    /// The bytes sealing adds: the tag.
    static let tagSize = 16
    static let nonceSize = 12

    // Immutable after init; BoringSSL's AEAD contexts are safe to seal and
    // open with from several threads at once (`const` in its interface).
    private let context: OpaquePointer

    /// A context for `key` (256 bits).
    init(_ key: SymmetricKey) {
        precondition(key.bitCount == 256, "AES-256-GCM-SIV takes a 256-bit key")
        let made = key.withUnsafeBytes { bytes in
            CCryptoBoringSSL_EVP_AEAD_CTX_new(
                CCryptoBoringSSL_EVP_aead_aes_256_gcm_siv(),
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                bytes.count,
                Self.tagSize
            )
        }
        // Only an allocation failure or a wrong key length make it fail.
        guard let made else { fatalError("BoringSSL could not allocate an AES-256-GCM-SIV context") }
        context = made
    }

    deinit {
        // BoringSSL's allocator overwrites what it frees: the key schedule
        // does not outlive the context.
        CCryptoBoringSSL_EVP_AEAD_CTX_free(context)
    }

    /// Seals `plain` into `output` as `ciphertext ‖ tag`; returns the count
    /// written (`plain.count + 16`). `nonce` has 12 bytes; `output` room for
    /// at least the count.
    @discardableResult
    func seal(
        _ plain: UnsafeRawBufferPointer,
        nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) -> Int {
        precondition(nonce.count == Self.nonceSize && output.count >= plain.count + Self.tagSize)
        var written = 0
        let sealed = CCryptoBoringSSL_EVP_AEAD_CTX_seal(
            context,
            output.baseAddress!.assumingMemoryBound(to: UInt8.self),
            &written,
            output.count,
            nonce.baseAddress!.assumingMemoryBound(to: UInt8.self),
            nonce.count,
            plain.baseAddress?.assumingMemoryBound(to: UInt8.self),
            plain.count,
            associatedData.baseAddress?.assumingMemoryBound(to: UInt8.self),
            associatedData.count
        )
        // A 12-byte nonce and room for the output: BoringSSL cannot refuse.
        precondition(sealed == 1 && written == plain.count + Self.tagSize, "AES-256-GCM-SIV sealing failed")
        return written
    }

    /// Opens `sealed` (`ciphertext ‖ tag`) into `output`; returns the
    /// plaintext's count, or `nil` when it does not authenticate (changed,
    /// bound to other associated data, or sealed under another key) — then
    /// `output` holds zeros, never unauthenticated bytes.
    func open(
        _ sealed: UnsafeRawBufferPointer,
        nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) -> Int? {
        precondition(nonce.count == Self.nonceSize)
        guard sealed.count >= Self.tagSize, output.count >= sealed.count - Self.tagSize else { return nil }
        var written = 0
        let opened = CCryptoBoringSSL_EVP_AEAD_CTX_open(
            context,
            output.baseAddress?.assumingMemoryBound(to: UInt8.self),
            &written,
            output.count,
            nonce.baseAddress!.assumingMemoryBound(to: UInt8.self),
            nonce.count,
            sealed.baseAddress!.assumingMemoryBound(to: UInt8.self),
            sealed.count,
            associatedData.baseAddress?.assumingMemoryBound(to: UInt8.self),
            associatedData.count
        )
        guard opened == 1 else {
            if output.count > 0 { output.initializeMemory(as: UInt8.self, repeating: 0) }
            CCryptoBoringSSL_ERR_clear_error()
            return nil
        }
        return written
    }

    /// Calls `body` with `sealed` opened in a temporary buffer (wiped after),
    /// or `nil` when it does not authenticate.
    func withOpened<R, E: Error>(
        _ sealed: UnsafeRawBufferPointer,
        nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer,
        _ body: (UnsafeRawBufferPointer?) throws(E) -> R
    ) throws(E) -> R {
        let count = max(sealed.count - Self.tagSize, 0)
        let result = withUnsafeTemporaryAllocation(byteCount: max(count, 1), alignment: 16) {
            buffer -> Result<R, E> in
            defer { buffer.initializeMemory(as: UInt8.self, repeating: 0) }
            let opened = open(sealed, nonce: nonce, associatedData: associatedData, into: buffer)
            do throws(E) {
                return .success(
                    try body(opened.map { UnsafeRawBufferPointer(rebasing: buffer[..<$0]) })
                )
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
