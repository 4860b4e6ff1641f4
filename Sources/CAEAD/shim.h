#ifndef ANCHORAGE_CAEAD_SHIM_H
#define ANCHORAGE_CAEAD_SHIM_H

// BoringSSL's AEAD interface (include/openssl/aead.h), as swift-crypto
// builds BoringSSL into every binary that links Crypto: its symbols carry
// the prefix `CCryptoBoringSSL_`. swift-crypto keeps that module internal,
// and its Swift API builds a new AEAD context and several Foundation.Data
// values per call (about 1.3 µs on this machine against BoringSSL's own
// 0.19 µs for a 100-byte AES-256-GCM-SIV open), so the log declares the
// few functions it calls here and keeps one context per key.
//
// Nothing is compiled from this module: the definitions are swift-crypto's,
// linked through the `Crypto` product. If a swift-crypto release renamed
// them, linking would fail, never run something else. The known-answer
// tests (SealingVectorTests) check the results against an implementation
// outside Swift.
#include <stddef.h>
#include <stdint.h>

typedef struct evp_aead_st ANCHORAGE_EVP_AEAD;
typedef struct evp_aead_ctx_st ANCHORAGE_EVP_AEAD_CTX;

// RFC 8452's AES-256-GCM-SIV.
const ANCHORAGE_EVP_AEAD *CCryptoBoringSSL_EVP_aead_aes_256_gcm_siv(void);

// A context for `key`, or NULL; `tag_len` 0 means the default (16).
ANCHORAGE_EVP_AEAD_CTX *CCryptoBoringSSL_EVP_AEAD_CTX_new(
    const ANCHORAGE_EVP_AEAD *aead, const uint8_t *key, size_t key_len, size_t tag_len);

// Frees a context; BoringSSL's allocator wipes what it frees.
void CCryptoBoringSSL_EVP_AEAD_CTX_free(ANCHORAGE_EVP_AEAD_CTX *ctx);

// Seals `in` into `out` (ciphertext ‖ tag); 1 on success. A context may
// seal and open from several threads at once.
int CCryptoBoringSSL_EVP_AEAD_CTX_seal(
    const ANCHORAGE_EVP_AEAD_CTX *ctx, uint8_t *out, size_t *out_len, size_t max_out_len,
    const uint8_t *nonce, size_t nonce_len, const uint8_t *in, size_t in_len,
    const uint8_t *ad, size_t ad_len);

// Opens `in` (ciphertext ‖ tag) into `out`; 1 when it authenticates.
int CCryptoBoringSSL_EVP_AEAD_CTX_open(
    const ANCHORAGE_EVP_AEAD_CTX *ctx, uint8_t *out, size_t *out_len, size_t max_out_len,
    const uint8_t *nonce, size_t nonce_len, const uint8_t *in, size_t in_len,
    const uint8_t *ad, size_t ad_len);

// Clears the error queue a failed open leaves on this thread.
void CCryptoBoringSSL_ERR_clear_error(void);

#endif
