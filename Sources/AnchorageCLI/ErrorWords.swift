import Anchorage
import Foundation

/// One sentence for any error a command meets: every layer's message as
/// its one error shape shows it (``AnchorageError/shownMessage``: the
/// store's with the rule it broke), JSON and file errors in words. No type
/// names, codes of other libraries or dumps.
///
/// ```swift
/// catch { throw CommandFailure(description: "the query failed: \(ErrorWords.describe(error))") }
/// ```
enum ErrorWords {
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as any AnchorageError:
            error.shownMessage
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
