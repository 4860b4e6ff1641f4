import Foundation

/// Words for a failure to read or decode a file a person named: what is
/// wrong with it, without Foundation's type names or the file's contents.
///
/// ```swift
/// catch { throw Failure("cannot read \(path): \(FileErrorWords.describe(error))") }
/// ```
public enum FileErrorWords {
    /// What went wrong with the file, in words.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let error as DecodingError:
            return DecodingErrorWords.describe(error).replacingOccurrences(of: "the body", with: "the file")
        case let error as CocoaError:
            switch error.code {
            case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
            case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
            case .fileReadCorruptFile, .fileReadInapplicableStringEncoding: return "it is not text in UTF-8"
            case .fileReadTooLarge: return "it is too large"
            default: break
            }
            if let posix = error.underlying as? POSIXError { return describe(posix) }
            return "it cannot be read"
        case let error as POSIXError:
            switch error.code {
            case .ENOENT: return "no such file"
            case .EACCES, .EPERM: return "permission denied"
            case .EISDIR: return "it is a directory, not a file"
            default: return String(cString: strerror(error.code.rawValue)).lowercased()
            }
        default:
            return "it cannot be read"
        }
    }
}
