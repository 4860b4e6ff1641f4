import CPKCS11
import Foundation

/// A PKCS#11 module loaded from a path (a token vendor's library), its
/// function list, and one checking helper for every call's return value.
///
/// Every PKCS#11 call of a provider goes through one session on one serial
/// queue (sessions are not to be shared between threads); nothing here is
/// asynchronous.
final class PKCS11Module: @unchecked Sendable {
    // @unchecked: the function list is immutable once loaded, and every call
    // that uses a session runs on the provider's serial queue.
    let path: String
    private let functions: UnsafeMutablePointer<CK_FUNCTION_LIST>

    /// Loads the module at `path` and initialises it (a module another
    /// provider of this process initialised already is fine).
    init(path: String) throws(KeyError) {
        self.path = path
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
            throw KeyError(.providerUnavailable, "the PKCS#11 module \(path) cannot be loaded: \(reason)")
        }
        guard let symbol = dlsym(handle, "C_GetFunctionList") else {
            throw KeyError(.providerUnavailable, "\(path) is not a PKCS#11 module: it has no C_GetFunctionList")
        }
        typealias GetFunctionList =
            @convention(c) (
                UnsafeMutablePointer<UnsafeMutablePointer<CK_FUNCTION_LIST>?>?
            ) -> CK_RV
        let getFunctionList = unsafeBitCast(symbol, to: GetFunctionList.self)
        var list: UnsafeMutablePointer<CK_FUNCTION_LIST>?
        try Self.check(getFunctionList(&list), "C_GetFunctionList", module: path)
        guard let list else {
            throw KeyError(.providerUnavailable, "\(path) returned no PKCS#11 function list")
        }
        functions = list
        var arguments = CK_C_INITIALIZE_ARGS()
        arguments.flags = CK_FLAGS(CKF_OS_LOCKING_OK)
        let rv = withUnsafeMutablePointer(to: &arguments) { functions.pointee.C_Initialize($0) }
        if rv != CKR_CRYPTOKI_ALREADY_INITIALIZED { try check(rv, "C_Initialize") }
    }

    var list: CK_FUNCTION_LIST { functions.pointee }

    /// Throws a ``KeyError`` for a return value other than `CKR_OK`.
    func check(_ rv: CK_RV, _ function: String) throws(KeyError) {
        try Self.check(rv, function, module: path)
    }

    static func check(_ rv: CK_RV, _ function: String, module: String) throws(KeyError) {
        guard rv != CKR_OK else { return }
        let name = returnValueNames[UInt(rv)] ?? "0x\(String(UInt(rv), radix: 16))"
        let code: KeyError.Code =
            unavailableReturnValues.contains(UInt(rv)) ? .providerUnavailable : .tokenError
        throw KeyError(code, "\(function) of the PKCS#11 module \(module) returned \(name)")
    }

    /// Return values that mean the token cannot be used now: the caller
    /// may try again later.
    static let unavailableReturnValues: Set<UInt> = [0x30, 0x31, 0x32, 0xB3, 0xE0, 0xE1, 0x190]

    /// The names of the return values a provider meets (PKCS#11 v2.40, §11.1).
    static let returnValueNames: [UInt: String] = [
        0x01: "CKR_CANCEL", 0x02: "CKR_HOST_MEMORY", 0x03: "CKR_SLOT_ID_INVALID",
        0x05: "CKR_GENERAL_ERROR", 0x06: "CKR_FUNCTION_FAILED", 0x07: "CKR_ARGUMENTS_BAD",
        0x10: "CKR_ATTRIBUTE_READ_ONLY", 0x12: "CKR_ATTRIBUTE_TYPE_INVALID", 0x13: "CKR_ATTRIBUTE_VALUE_INVALID",
        0x20: "CKR_DATA_INVALID", 0x21: "CKR_DATA_LEN_RANGE", 0x30: "CKR_DEVICE_ERROR",
        0x31: "CKR_DEVICE_MEMORY", 0x32: "CKR_DEVICE_REMOVED", 0x40: "CKR_ENCRYPTED_DATA_INVALID",
        0x41: "CKR_ENCRYPTED_DATA_LEN_RANGE", 0x54: "CKR_FUNCTION_NOT_SUPPORTED", 0x60: "CKR_KEY_HANDLE_INVALID",
        0x62: "CKR_KEY_SIZE_RANGE", 0x63: "CKR_KEY_TYPE_INCONSISTENT", 0x68: "CKR_KEY_FUNCTION_NOT_PERMITTED",
        0x70: "CKR_MECHANISM_INVALID", 0x71: "CKR_MECHANISM_PARAM_INVALID", 0x82: "CKR_OBJECT_HANDLE_INVALID",
        0x90: "CKR_OPERATION_ACTIVE", 0x91: "CKR_OPERATION_NOT_INITIALIZED", 0xA0: "CKR_PIN_INCORRECT",
        0xA1: "CKR_PIN_INVALID", 0xA2: "CKR_PIN_LEN_RANGE", 0xA4: "CKR_PIN_LOCKED",
        0xB0: "CKR_SESSION_CLOSED", 0xB3: "CKR_SESSION_HANDLE_INVALID", 0xB5: "CKR_SESSION_READ_ONLY",
        0xD0: "CKR_TEMPLATE_INCOMPLETE", 0xD1: "CKR_TEMPLATE_INCONSISTENT", 0xE0: "CKR_TOKEN_NOT_PRESENT",
        0xE1: "CKR_TOKEN_NOT_RECOGNIZED", 0xE2: "CKR_TOKEN_WRITE_PROTECTED", 0x100: "CKR_USER_ALREADY_LOGGED_IN",
        0x101: "CKR_USER_NOT_LOGGED_IN", 0x102: "CKR_USER_PIN_NOT_INITIALIZED", 0x150: "CKR_BUFFER_TOO_SMALL",
        0x190: "CKR_CRYPTOKI_NOT_INITIALIZED", 0x191: "CKR_CRYPTOKI_ALREADY_INITIALIZED",
    ]

    /// The slot whose token has `label`.
    func slot(tokenLabel label: String) throws(KeyError) -> CK_SLOT_ID {
        var count: CK_ULONG = 0
        try check(list.C_GetSlotList(CK_BBOOL(CK_TRUE), nil, &count), "C_GetSlotList")
        var slots = [CK_SLOT_ID](repeating: 0, count: Int(count))
        try check(list.C_GetSlotList(CK_BBOOL(CK_TRUE), &slots, &count), "C_GetSlotList")
        var labels: [String] = []
        for slot in slots.prefix(Int(count)) {
            var info = CK_TOKEN_INFO()
            try check(list.C_GetTokenInfo(slot, &info), "C_GetTokenInfo")
            let found = withUnsafeBytes(of: info.label) { bytes in
                String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            }
            if found == label { return slot }
            labels.append(found)
        }
        throw KeyError(
            .providerUnavailable,
            "no token labelled \"\(label)\" is present in the PKCS#11 module \(path) (tokens present: "
                + (labels.isEmpty ? "none" : labels.map { "\"\($0)\"" }.joined(separator: ", ")) + ")"
        )
    }
}
