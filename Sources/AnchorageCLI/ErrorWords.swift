import Anchorage
import AnchorageLog
import AnchorageSync
import Foundation

/// One sentence for any error a command meets: the store's with the rule
/// it broke, the log's and the replication's messages, JSON and file
/// errors in words. No type names, codes of other libraries or dumps.
///
/// ```swift
/// catch { throw CommandFailure(description: "the query failed: \(ErrorWords.describe(error))") }
/// ```
enum ErrorWords {
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as HKError:
            error.messageWithRule
        case let error as LogError:
            error.message
        case let error as SyncError:
            error.message
        case let error as DecodingError:
            DecodingErrorWords.describe(error)
        case is CocoaError, is POSIXError:
            FileErrorWords.describe(error)
        case let error as any CustomStringConvertible:
            error.description
        default:
            "\(error)"
        }
    }
}
