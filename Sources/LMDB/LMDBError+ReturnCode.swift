import CLMDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LMDBError {
    /// Classifies a non-zero return code of `function`.
    ///
    /// Codes that only a misuse of LMDB by this binding can produce stop the
    /// process: continuing would risk the data, and no caller could handle them.
    init(returnCode rc: Int32, function: String, context: String? = nil) {
        precondition(rc != MDB_SUCCESS, "\(function) succeeded; there is no error to report")
        precondition(rc != MDB_NOTFOUND, "\(function): MDB_NOTFOUND must be handled where it is expected")
        Self.preconditionIsNotABug(rc, function: function)
        let (wrapped, text) = Self.classify(rc, context: context)
        self.init(code: Code(wrapped), function: function, returnCode: rc, message: text)
    }

    /// Traps on codes that mean this binding used LMDB wrongly.
    private static func preconditionIsNotABug(_ rc: Int32, function: String) {
        let bug: String? =
            switch rc {
            case MDB_BAD_TXN: "MDB_BAD_TXN (transaction used after it failed, ended, or while it has a child)"
            case MDB_BAD_DBI: "MDB_BAD_DBI (database handle unknown to this environment or transaction)"
            case MDB_BAD_RSLOT: "MDB_BAD_RSLOT (reader slot misuse)"
            case MDB_TLS_FULL: "MDB_TLS_FULL (thread-local storage exhausted)"
            case MDB_CURSOR_FULL: "MDB_CURSOR_FULL (cursor stack too deep)"
            case MDB_PAGE_FULL: "MDB_PAGE_FULL (internal page has no room)"
            case EINVAL: "EINVAL (invalid parameter)"
            default: nil
            }
        if let bug {
            preconditionFailure("LMDB: \(function) returned \(bug); this is a bug in the LMDB binding or its caller")
        }
    }

    private static func classify(_ rc: Int32, context: String?) -> (Code.Wrapped, String) {
        let suffix = context.map { " (\($0))" } ?? ""
        switch rc {
        case MDB_KEYEXIST:
            return (.keyExists, "the key already exists\(suffix)")
        case MDB_MAP_FULL:
            return (
                .mapFull,
                "the memory map is full\(suffix); raise Environment.Configuration.maximumMapSize or free disk space"
            )
        case MDB_READERS_FULL:
            return (
                .readersFull,
                "every reader slot is in use\(suffix); end read transactions sooner or raise Environment.Configuration.maxReaders"
            )
        case ENOSPC:
            return (.noSpace, "no space left on the device holding the store\(suffix); free disk space and retry")
        case ENOMEM:
            return (.outOfMemory, "out of memory or address space\(suffix); lower the map size or free memory")
        case MDB_TXN_FULL:
            return (
                .transactionFull, "the transaction has too many changes\(suffix); split the work into smaller batches"
            )
        case MDB_DBS_FULL:
            return (.databasesFull, "too many named databases\(suffix); raise Environment.Configuration.maxDatabases")
        case EACCES, EPERM, EROFS:
            return (
                .permissionDenied,
                "permission denied\(suffix); check the owner and mode of the store's directory and that its filesystem is writable"
            )
        case EIO:
            return (.ioError, "the storage device reported an input/output error\(suffix)")
        case MDB_CORRUPTED, MDB_PAGE_NOTFOUND:
            return (.corrupted, "the data file is corrupted\(suffix); restore the store from a backup")
        case MDB_INVALID:
            return (.invalidFile, "the file is not an LMDB environment\(suffix)")
        case MDB_VERSION_MISMATCH:
            return (.versionMismatch, "the environment was written by an incompatible LMDB version\(suffix)")
        case MDB_PANIC:
            return (.panic, "LMDB hit a fatal error\(suffix); close the environment and open it again")
        case MDB_INCOMPATIBLE:
            return (.incompatible, "the database was opened with flags that do not match how it was created\(suffix)")
        case MDB_BAD_VALSIZE:
            return (.badValueSize, "a key is empty or longer than the maximum key size\(suffix)")
        case ENOENT:
            return (.fileNotFound, "the file or directory does not exist\(suffix)")
        case EAGAIN, EBUSY:
            return (.busy, "another process holds the lock\(suffix)")
        case MDB_MAP_RESIZED:
            return (.mapResized, "another process grew the map\(suffix)")
        default:
            let text = mdb_strerror(rc).map { String(cString: $0) } ?? "unknown error"
            return (.other, "\(text)\(suffix)")
        }
    }
}
