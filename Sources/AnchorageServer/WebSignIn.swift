import Anchorage
import AnchorageService
import Foundation
import Synchronization

/// The web page's sign-in (docs/http-api.md, "The web page"): one-time codes
/// the node prints in a link when it starts, each exchanged once, within
/// its lifetime, for a session token with the owner's rights; sessions
/// live in memory only and expire.
///
/// ```swift
/// let signIn = WebSignIn(clock: .continuous)
/// let code = signIn.issueCode()                   // printed as http://host:port/#sign-in=CODE
/// let session = signIn.redeem(code)               // once; nil the second time
/// signIn.isSession(session!.token)                // true for 12 hours
/// ```
///
/// Codes and tokens are kept as SHA-256 digests and compared in constant
/// time, like the token file's.
final class WebSignIn: Sendable {
    /// A session handed out for a code.
    struct Session: Sendable {
        /// The bearer token.
        var token: String
        /// Its lifetime from now.
        var lifetime: Duration
    }

    private struct State {
        var codes: [(digest: [UInt8], expires: Duration)] = []
        var sessions: [(digest: [UInt8], expires: Duration)] = []
    }

    private let clock: StoreClock
    private let codeLifetime: Duration
    private let sessionLifetime: Duration
    /// At most this many codes and sessions each; the oldest go first.
    private let capacity: Int
    private let state = Mutex(State())

    init(
        clock: StoreClock,
        codeLifetime: Duration = .seconds(600),
        sessionLifetime: Duration = .seconds(43_200),
        capacity: Int = 64
    ) {
        self.clock = clock
        self.codeLifetime = codeLifetime
        self.sessionLifetime = sessionLifetime
        self.capacity = capacity
    }

    /// A new one-time code, valid for the code lifetime.
    func issueCode() -> String {
        let code = Self.randomSecret()
        let expires = clock.now() + codeLifetime
        state.withLock { state in
            state.codes.append((Self.digest(code), expires))
            if state.codes.count > capacity { state.codes.removeFirst(state.codes.count - capacity) }
        }
        return code
    }

    /// Exchanges `code` for a session: `nil` when no live code matches
    /// (unknown, used, or expired). A code works once.
    func redeem(_ code: String) -> Session? {
        let presented = Self.digest(code)
        let now = clock.now()
        let token = Self.randomSecret()
        return state.withLock { state -> Session? in
            state.codes.removeAll { $0.expires <= now }
            var found: Int?
            for (index, entry) in state.codes.enumerated() where Self.equalInConstantTime(entry.digest, presented) {
                found = index
            }
            guard let found else { return nil }
            state.codes.remove(at: found)
            state.sessions.removeAll { $0.expires <= now }
            state.sessions.append((Self.digest(token), now + sessionLifetime))
            if state.sessions.count > capacity { state.sessions.removeFirst(state.sessions.count - capacity) }
            return Session(token: token, lifetime: sessionLifetime)
        }
    }

    /// Whether `digest` (a presented token's SHA-256) is a live session's.
    func isSession(digest presented: [UInt8]) -> Bool {
        let now = clock.now()
        return state.withLock { state in
            var found = false
            for entry in state.sessions where Self.equalInConstantTime(entry.digest, presented) {
                found = entry.expires > now
            }
            return found
        }
    }

    /// Whether `token` is a live session's.
    func isSession(_ token: String) -> Bool {
        isSession(digest: Self.digest(token))
    }

    /// Ends the session of `token`, if it is one: it is refused from now on.
    func end(_ token: String) {
        let presented = Self.digest(token)
        state.withLock { state in
            state.sessions.removeAll { Self.equalInConstantTime($0.digest, presented) }
        }
    }

    /// 32 random bytes as base64url, as the registry makes token secrets.
    static func randomSecret() -> String { NodeRegistry.random(bytes: 32) }

    /// A secret's SHA-256, as the token file's and the registry's are kept.
    static func digest(_ secret: String) -> [UInt8] { NodeRegistry.secretDigest(secret) }

    static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool { NodeAccess.equalInConstantTime(a, b) }
}
