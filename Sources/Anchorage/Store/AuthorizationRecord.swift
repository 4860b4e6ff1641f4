import AnchorageModel
import Foundation

/// The payload of an authorization entry: an app's request, or the owner's
/// decision, for some types (section 7). Recorded in the log so that
/// grants replicate and can be audited.
struct AuthorizationRecord: Codable, Hashable, Sendable {
    /// Read or share (write) access (AUTH-2).
    enum Access: UInt8, Codable, Sendable {
        case read = 1
        case share = 2
    }

    /// Where an access stands.
    enum Status: UInt8, Codable, Sendable {
        /// The app asked; nobody decided yet.
        case requested = 1
        case granted = 2
        case denied = 3
    }

    struct Decision: Codable, Hashable, Sendable {
        /// The type's identifier.
        var type: String
        var access: Access
        var status: Status
    }

    /// The app's bundle identifier.
    var principal: String
    /// The app's display name.
    var name: String
    var decisions: [Decision]

    var bytes: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array((try? encoder.encode(self)) ?? Data())
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) -> AuthorizationRecord? {
        try? JSONDecoder().decode(AuthorizationRecord.self, from: Data(bytes))
    }
}
