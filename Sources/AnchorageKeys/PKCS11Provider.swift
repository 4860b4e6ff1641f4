public import AnchorageLog
import CPKCS11
import Crypto
import Dispatch
public import Foundation
import Synchronization

/// A key provider backed by a PKCS#11 token: a hardware security module or
/// a cloud HSM (their vendors ship PKCS#11 libraries), or SoftHSM2 in tests.
///
/// The node loads the module at ``Configuration/module``, logs into the
/// token labelled ``Configuration/token`` with the PIN read from
/// ``Configuration/pinFile``, and wraps data keys with AES-256-GCM on the
/// token, under a non-extractable AES key labelled ``Configuration/keyLabel``:
/// the wrapping key never leaves the token. Every call ends within
/// ``Configuration/timeout`` (``KeyError/Code/providerUnavailable``
/// otherwise), so an HSM that stops answering fails requests instead of
/// holding them.
///
/// ```swift
/// var configuration = PKCS11Provider.Configuration(
///     module: "/usr/lib/softhsm/libsofthsm2.so",
///     token: "anchorage",
///     pinFile: URL(filePath: "/etc/anchorage/hsm.pin")
/// )
/// configuration.createsKey = true   // generate the wrapping key on first use
/// let provider = try await PKCS11Provider(configuration: configuration)
/// ```
public final class PKCS11Provider: KeyProvider {
    /// Where the token is and how to use it.
    public struct Configuration: Sendable {
        /// The path of the PKCS#11 module (a shared library).
        public var module: String
        /// The label of the token.
        public var token: String
        /// A file holding the user PIN (its first line); it is read once,
        /// at start.
        public var pinFile: URL
        /// The label of the AES wrapping key on the token.
        public var keyLabel: String = "anchorage-wrapping-key"
        /// Whether to generate the wrapping key on the token when it has
        /// none with ``keyLabel`` (non-extractable, sensitive, AES-256).
        public var createsKey: Bool = false
        /// The longest any call may take.
        public var timeout: Duration = .seconds(5)

        public init(module: String, token: String, pinFile: URL) {
            self.module = module
            self.token = token
            self.pinFile = pinFile
        }
    }

    public let configuration: Configuration
    let module: PKCS11Module
    let session: CK_SESSION_HANDLE
    /// The wrapping key: what wraps, and unwraps what it wrapped.
    let key: CK_OBJECT_HANDLE
    /// Every call of the session runs here, one at a time.
    let queue = DispatchQueue(label: "anchorage.pkcs11")
    /// Other wrapping keys of the token, by label, found when a data key
    /// wrapped by one of them was unwrapped (``PKCS11Provider+Rotation.swift``).
    let retiredKeys = Mutex<[String: CK_OBJECT_HANDLE]>([:])

    deinit {
        let (module, session) = (self.module, self.session)
        queue.async { _ = module.list.C_CloseSession(session) }
    }

    public var name: String { "PKCS#11 token \"\(configuration.token)\" (\(configuration.module))" }

    /// The id ``WrappedKey/wrappingKeyID`` records: the key's label.
    var wrappingKeyID: String { Self.wrappingKeyPrefix + configuration.keyLabel }

    /// Loads the module, logs into the token and finds (or creates) the
    /// wrapping key, within the configured time-out.
    ///
    /// - Throws: ``KeyError`` `providerUnavailable` (module missing, token
    ///   absent, no answer in time), `tokenError` (a wrong PIN, a call the
    ///   token refused), `keyMissing` (no wrapping key and ``Configuration/createsKey`` off),
    ///   `invalidKeyFile` (the PIN file cannot be read).
    public init(configuration: Configuration) async throws(KeyError) {
        self.configuration = configuration
        let pin = try Self.readPIN(configuration.pinFile)
        let queue = self.queue
        let opened = try await Self.run(on: queue, timeout: configuration.timeout, what: "opening the token") {
            () throws(KeyError) -> (PKCS11Module, CK_SESSION_HANDLE, CK_OBJECT_HANDLE) in
            let module = try PKCS11Module(path: configuration.module)
            let slot = try module.slot(tokenLabel: configuration.token)
            var session: CK_SESSION_HANDLE = 0
            try module.check(
                module.list.C_OpenSession(slot, CK_FLAGS(CKF_SERIAL_SESSION | CKF_RW_SESSION), nil, nil, &session),
                "C_OpenSession"
            )
            let key = Result { () throws(KeyError) -> CK_OBJECT_HANDLE in
                try Self.logIn(module, session: session, token: configuration.token, pin: pin)
                return try Self.findKey(module, session: session, configuration: configuration)
            }
            if case .failure = key { _ = module.list.C_CloseSession(session) }
            return (module, session, try key.get())
        }
        (module, session, key) = opened
    }

    public func currentWrappingKeyID() async throws(KeyError) -> String { wrappingKeyID }

    public func wrap(_ dataKey: DataKey) async throws(KeyError) -> WrappedKey {
        var drawn = [UInt8](repeating: 0, count: 12)
        drawn.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
        let nonce = drawn
        let associated = WrappedKey.associatedData(
            keyID: dataKey.id,
            version: dataKey.version,
            wrappingKeyID: wrappingKeyID
        )
        let material = dataKey.material.withUnsafeBytes { Array($0) }
        let (module, session, key) = (self.module, self.session, self.key)
        let sealed = try await Self.run(on: queue, timeout: configuration.timeout, what: "wrapping a data key") {
            () throws(KeyError) in
            try Self.crypt(
                module,
                session: session,
                key: key,
                nonce: nonce,
                associated: associated,
                input: material,
                encrypting: true
            )
        }
        return WrappedKey(
            keyID: dataKey.id,
            version: dataKey.version,
            wrappingKeyID: wrappingKeyID,
            bytes: nonce + sealed
        )
    }

    public func unwrap(_ wrapped: WrappedKey) async throws(KeyError) -> DataKey {
        // The current key, or one it replaced that the token still holds.
        let key = try await wrappingKey(named: wrapped.wrappingKeyID, unwrapping: wrapped)
        guard wrapped.bytes.count == WrappedKey.wrappedSize else {
            throw KeyError(
                .unwrapFailed,
                "the wrapped data key \(wrapped.keyID) has \(wrapped.bytes.count) bytes, not 60"
            )
        }
        let nonce = Array(wrapped.bytes.prefix(12))
        let sealed = Array(wrapped.bytes.dropFirst(12))
        let associated = wrapped.associatedData
        let (module, session) = (self.module, self.session)
        let material: [UInt8]
        do {
            material = try await Self.run(on: queue, timeout: configuration.timeout, what: "unwrapping a data key") {
                () throws(KeyError) in
                try Self.crypt(
                    module,
                    session: session,
                    key: key,
                    nonce: nonce,
                    associated: associated,
                    input: sealed,
                    encrypting: false
                )
            }
        } catch  where error.code == .unwrapFailed {
            throw KeyError(
                .unwrapFailed,
                "the wrapped data key \(wrapped.keyID) (version \(wrapped.version)) does not unwrap on \(name): it was "
                    + "changed, or belongs to another key"
            )
        }
        return try wrapped.dataKey(material: material)
    }
}

extension PKCS11Provider {
    /// The PIN each token of this process was logged into with (a digest):
    /// PKCS#11 logs an application into a token once, for all its sessions,
    /// so a second provider's PIN is checked against the first one's.
    private static let loggedIn = Mutex<[String: [UInt8]]>([:])

    static func logIn(_ module: PKCS11Module, session: CK_SESSION_HANDLE, token: String, pin: String) throws(KeyError) {
        var pinBytes = Array(pin.utf8)
        let digest = Array(SHA256.hash(data: Array("anchorage pin".utf8) + pinBytes))
        let name = module.path + "\u{0}" + token
        let rv = module.list.C_Login(session, CK_USER_TYPE(CKU_USER), &pinBytes, CK_ULONG(pinBytes.count))
        if rv == CKR_USER_ALREADY_LOGGED_IN {
            let known = loggedIn.withLock { $0[name] }
            guard known == nil || known == digest else {
                throw KeyError(
                    .tokenError,
                    "C_Login of the PKCS#11 module \(module.path) returned CKR_PIN_INCORRECT for token \"\(token)\""
                )
            }
            return
        }
        try module.check(rv, "C_Login")
        loggedIn.withLock { $0[name] = digest }
    }

    static func readPIN(_ url: URL) throws(KeyError) -> String {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw KeyError(.invalidKeyFile, "the PIN file \(url.path) cannot be read: \(error.localizedDescription)")
        }
        let pin = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard !pin.isEmpty else { throw KeyError(.invalidKeyFile, "the PIN file \(url.path) is empty") }
        return pin
    }

    /// Runs `body` on `queue`, and fails with `providerUnavailable` if it
    /// has not finished within `timeout` (it then finishes unobserved).
    static func run<R: Sendable>(
        on queue: DispatchQueue,
        timeout: Duration,
        what: String,
        _ body: @escaping @Sendable () throws(KeyError) -> R
    ) async throws(KeyError) -> R {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<R, KeyError>, Never>) in
            let once = Mutex<CheckedContinuation<Result<R, KeyError>, Never>?>(continuation)
            queue.async {
                let result = Result { () throws(KeyError) in try body() }
                once.withLock { $0.take() }?.resume(returning: result)
            }
            let nanoseconds =
                timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
                once.withLock { $0.take() }?.resume(
                    returning: .failure(
                        KeyError(.providerUnavailable, "the PKCS#11 token did not answer within \(timeout) \(what)")
                    )
                )
            }
        }
        return try outcome.get()
    }

    /// The token's AES key labelled as configured, generated when missing
    /// and the configuration allows it.
    static func findKey(
        _ module: PKCS11Module,
        session: CK_SESSION_HANDLE,
        configuration: Configuration,
        label: String? = nil
    ) throws(KeyError) -> CK_OBJECT_HANDLE {
        let label = label ?? configuration.keyLabel
        let found = try AttributeTemplate(
            [
                (CKA_CLASS, .unsigned(UInt(CKO_SECRET_KEY))),
                (CKA_KEY_TYPE, .unsigned(UInt(CKK_AES))),
                (CKA_LABEL, .bytes(Array(label.utf8))),
            ]
        ).with { template throws(KeyError) -> [CK_OBJECT_HANDLE] in
            try module.check(
                module.list.C_FindObjectsInit(session, template.baseAddress, CK_ULONG(template.count)),
                "C_FindObjectsInit"
            )
            var handles = [CK_OBJECT_HANDLE](repeating: 0, count: 2)
            var count: CK_ULONG = 0
            let rv = module.list.C_FindObjects(session, &handles, 2, &count)
            _ = module.list.C_FindObjectsFinal(session)
            try module.check(rv, "C_FindObjects")
            return Array(handles.prefix(Int(count)))
        }
        if found.count > 1 {
            throw KeyError(
                .tokenError,
                "the token \"\(configuration.token)\" holds several AES keys labelled \"\(label)\"; keep one"
            )
        }
        if let key = found.first { return key }
        guard configuration.createsKey, label == configuration.keyLabel else {
            throw KeyError(
                .keyMissing,
                "the token \"\(configuration.token)\" holds no AES key labelled \"\(label)\"; create "
                    + "one (anchorage serve --pkcs11-create-key) or name the existing one"
            )
        }
        return try generateKey(module, session: session, label: label)
    }

    /// Generates a non-extractable, sensitive AES-256 key on the token.
    static func generateKey(
        _ module: PKCS11Module,
        session: CK_SESSION_HANDLE,
        label: String
    ) throws(KeyError) -> CK_OBJECT_HANDLE {
        var mechanism = CK_MECHANISM(mechanism: CK_MECHANISM_TYPE(CKM_AES_KEY_GEN), pParameter: nil, ulParameterLen: 0)
        return try AttributeTemplate(
            [
                (CKA_CLASS, .unsigned(UInt(CKO_SECRET_KEY))),
                (CKA_KEY_TYPE, .unsigned(UInt(CKK_AES))),
                (CKA_VALUE_LEN, .unsigned(32)),
                (CKA_TOKEN, .bool(true)),
                (CKA_PRIVATE, .bool(true)),
                (CKA_SENSITIVE, .bool(true)),
                (CKA_EXTRACTABLE, .bool(false)),
                (CKA_ENCRYPT, .bool(true)),
                (CKA_DECRYPT, .bool(true)),
                (CKA_LABEL, .bytes(Array(label.utf8))),
            ]
        ).with { template throws(KeyError) in
            var key: CK_OBJECT_HANDLE = 0
            try module.check(
                module.list.C_GenerateKey(session, &mechanism, template.baseAddress, CK_ULONG(template.count), &key),
                "C_GenerateKey"
            )
            return key
        }
    }

    /// What C_Decrypt answers for a GCM tag that does not verify:
    /// CKR_ENCRYPTED_DATA_INVALID (the standard's), CKR_GENERAL_ERROR and
    /// CKR_FUNCTION_FAILED (SoftHSM2 and others), CKR_DATA_INVALID.
    static let authenticationFailures: Set<UInt> = [0x40, 0x05, 0x06, 0x20]

    /// AES-256-GCM on the token: 12-byte nonce, 128-bit tag appended.
    static func crypt(
        _ module: PKCS11Module,
        session: CK_SESSION_HANDLE,
        key: CK_OBJECT_HANDLE,
        nonce: [UInt8],
        associated: [UInt8],
        input: [UInt8],
        encrypting: Bool
    ) throws(KeyError) -> [UInt8] {
        var nonce = nonce
        var associated = associated
        var input = input
        let outcome = nonce.withUnsafeMutableBufferPointer { nonceBuffer in
            associated.withUnsafeMutableBufferPointer { aadBuffer in
                Result { () throws(KeyError) -> [UInt8] in
                    var parameters = CK_GCM_PARAMS(
                        pIv: nonceBuffer.baseAddress,
                        ulIvLen: CK_ULONG(nonceBuffer.count),
                        ulIvBits: CK_ULONG(nonceBuffer.count * 8),
                        pAAD: aadBuffer.baseAddress,
                        ulAADLen: CK_ULONG(aadBuffer.count),
                        ulTagBits: 128
                    )
                    return try withUnsafeMutablePointer(to: &parameters) { pointer throws(KeyError) in
                        var mechanism = CK_MECHANISM(
                            mechanism: CK_MECHANISM_TYPE(CKM_AES_GCM),
                            pParameter: UnsafeMutableRawPointer(pointer),
                            ulParameterLen: CK_ULONG(MemoryLayout<CK_GCM_PARAMS>.size)
                        )
                        var output = [UInt8](repeating: 0, count: input.count + 16)
                        var length = CK_ULONG(output.count)
                        if encrypting {
                            try module.check(module.list.C_EncryptInit(session, &mechanism, key), "C_EncryptInit")
                            try module.check(
                                module.list.C_Encrypt(session, &input, CK_ULONG(input.count), &output, &length),
                                "C_Encrypt"
                            )
                        } else {
                            try module.check(module.list.C_DecryptInit(session, &mechanism, key), "C_DecryptInit")
                            let rv = module.list.C_Decrypt(session, &input, CK_ULONG(input.count), &output, &length)
                            // A tag that does not verify: tokens answer it
                            // in several ways (SoftHSM2: CKR_GENERAL_ERROR).
                            if Self.authenticationFailures.contains(UInt(rv)) {
                                throw KeyError(.unwrapFailed, "C_Decrypt refused the wrapped bytes")
                            }
                            try module.check(rv, "C_Decrypt")
                        }
                        return Array(output.prefix(Int(length)))
                    }
                }
            }
        }
        return try outcome.get()
    }
}

/// A PKCS#11 attribute template whose values live as long as it does.
final class AttributeTemplate {
    enum Value {
        case unsigned(UInt)
        case bool(Bool)
        case bytes([UInt8])
    }

    private var attributes: [CK_ATTRIBUTE]
    private let storage: [UnsafeMutableRawBufferPointer]

    init(_ values: [(UInt, Value)]) {
        var storage: [UnsafeMutableRawBufferPointer] = []
        attributes = values.map { type, value in
            let buffer: UnsafeMutableRawBufferPointer
            switch value {
            case .unsigned(let number):
                buffer = .allocate(byteCount: MemoryLayout<CK_ULONG>.size, alignment: MemoryLayout<CK_ULONG>.alignment)
                buffer.storeBytes(of: CK_ULONG(number), as: CK_ULONG.self)
            case .bool(let flag):
                buffer = .allocate(byteCount: 1, alignment: 1)
                buffer[0] = flag ? 1 : 0
            case .bytes(let bytes):
                buffer = .allocate(byteCount: max(bytes.count, 1), alignment: 1)
                buffer.copyBytes(from: bytes)
            }
            storage.append(buffer)
            let count = if case .bytes(let bytes) = value { bytes.count } else { buffer.count }
            return CK_ATTRIBUTE(type: CK_ATTRIBUTE_TYPE(type), pValue: buffer.baseAddress, ulValueLen: CK_ULONG(count))
        }
        self.storage = storage
    }

    deinit {
        for buffer in storage { buffer.deallocate() }
    }

    /// Calls `body` with the template.
    func with<R>(_ body: (UnsafeMutableBufferPointer<CK_ATTRIBUTE>) throws(KeyError) -> R) throws(KeyError) -> R {
        try attributes.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(KeyError) in try body(buffer) }
        }.get()
    }
}
