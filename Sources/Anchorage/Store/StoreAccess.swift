import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// Which samples of one type a caller may read (AUTH-4, AUTH-5).
struct ReadScope: Sendable, Hashable {
    /// Every source's samples.
    var everything: Bool
    /// Only this source's samples (hidden read denial), when not everything.
    var onlySource: String?

    static let all = ReadScope(everything: true, onlySource: nil)
    static let nothing = ReadScope(everything: false, onlySource: nil)

    func admits(source: String) -> Bool {
        everything || onlySource == source
    }

    var admitsAnything: Bool { everything || onlySource != nil }
}

/// Who is calling: the store's owner (full access) or an app acting as a
/// principal (section 7).
struct Caller: Sendable {
    /// The app's revision; `nil` for the owner.
    let revision: HKSourceRevision?

    var isOwner: Bool { revision == nil }
    var bundleIdentifier: String? { revision?.source.bundleIdentifier }
}
