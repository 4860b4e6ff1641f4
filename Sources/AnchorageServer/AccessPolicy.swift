public import Anchorage
import Foundation

/// The bearer tokens a node accepts, each naming a principal and what it
/// may read and share, read from a JSON file:
///
/// ```json
/// {
///   "tokens": [
///     { "token": "owner-secret", "owner": true },
///     { "token": "dashboard-secret",
///       "principal": { "name": "Dashboard", "bundleIdentifier": "com.example.dashboard" },
///       "read": ["stepCount", "heartRate"], "share": [] }
///   ]
/// }
/// ```
///
/// An owner token reads and writes everything. A principal's token acts as
/// that app under HealthKit's rules: reads of types it may not read look
/// empty (AUTH-4, the hidden-read rule), saves of types it may not share
/// are refused. The node records the grants in the log as the owner's
/// decisions when it starts, so they replicate and can be audited.
public struct AccessPolicy: Sendable {
    /// One accepted token.
    public struct Token: Sendable {
        /// The secret, sent as `Authorization: Bearer <secret>`.
        public var secret: String
        /// Who the token acts as: `nil` for the owner.
        public var principal: HKSource?
        /// The types the principal may read.
        public var read: Set<HKObjectType>
        /// The types the principal may save and delete.
        public var share: Set<HKSampleType>
        /// Whether the token may replicate (the `/v1/sync` endpoints). A
        /// token with only this grant (no owner, no principal) is a peer's:
        /// it reaches nothing else.
        public var replicates = false

        /// A token acting as the store's owner.
        public static func owner(_ secret: String, replicates: Bool = false) -> Token {
            var token = Token(secret: secret, principal: nil, read: [], share: [])
            token.replicates = replicates
            return token
        }

        /// A peer's token: replication only.
        public static func peer(_ secret: String) -> Token {
            var token = Token(secret: secret, principal: nil, read: [], share: [])
            token.replicates = true
            token.isPeerOnly = true
            return token
        }

        /// Whether the token may do nothing but replicate.
        public internal(set) var isPeerOnly = false

        /// A token acting as an app with the given grants.
        public init(secret: String, principal: HKSource?, read: Set<HKObjectType>, share: Set<HKSampleType>) {
            self.secret = secret
            self.principal = principal
            self.read = read
            self.share = share
        }
    }

    /// The accepted tokens; empty means no authentication (loopback only).
    public var tokens: [Token]

    /// A policy with these tokens (none: no authentication).
    public init(tokens: [Token] = []) {
        self.tokens = tokens
    }

    /// Reads a token file.
    ///
    /// - Throws: ``NodeConfigurationError`` saying which token is wrong and why.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw NodeConfigurationError(
                "cannot read the token file \(url.path): \(FileErrorWords.describe(error))",
                underlyingError: error
            )
        }
        try self.init(json: data)
    }

    /// Parses a token file's contents.
    public init(json data: Data) throws {
        let file: TokenFile
        do {
            file = try JSONDecoder().decode(TokenFile.self, from: data)
        } catch {
            throw NodeConfigurationError(
                "the token file is not valid: \(FileErrorWords.describe(error)); it is JSON such as "
                    + #"{"tokens":[{"token":"…","owner":true}]} (docs/http-api.md)"#,
                underlyingError: error
            )
        }
        var tokens: [Token] = []
        var seen = Set<String>()
        for (index, entry) in file.tokens.enumerated() {
            let position = "token \(index + 1)"
            guard entry.token.utf8.count >= 16 else {
                throw NodeConfigurationError("\(position): a token has at least 16 characters")
            }
            guard seen.insert(entry.token).inserted else {
                throw NodeConfigurationError("\(position) repeats an earlier token")
            }
            if entry.owner == true {
                guard entry.principal == nil, (entry.read ?? []).isEmpty, (entry.share ?? []).isEmpty else {
                    throw NodeConfigurationError("\(position): an owner token has no principal, read or share")
                }
                tokens.append(.owner(entry.token, replicates: entry.replicate == true))
                continue
            }
            if entry.replicate == true && entry.principal == nil {
                guard (entry.read ?? []).isEmpty, (entry.share ?? []).isEmpty else {
                    throw NodeConfigurationError(
                        "\(position): a peer token (replicate without a principal) has no read or share"
                    )
                }
                tokens.append(.peer(entry.token))
                continue
            }
            guard entry.replicate != true else {
                throw NodeConfigurationError(
                    "\(position): an app's token cannot replicate; give peers a token of their own"
                )
            }
            guard let principal = entry.principal, !principal.bundleIdentifier.isEmpty,
                principal.bundleIdentifier.utf8.count <= 255
            else {
                throw NodeConfigurationError(
                    "\(position): name a principal with a bundleIdentifier, or set \"owner\": true"
                )
            }
            let read = try (entry.read ?? []).map { name throws(NodeConfigurationError) -> HKObjectType in
                if TextForms.isActivitySummary(name) {
                    return HKObjectType.activitySummaryType()
                }
                return try Self.sampleType(name, position)
            }
            let share = try (entry.share ?? []).map { name throws(NodeConfigurationError) -> HKSampleType in
                let type = try Self.sampleType(name, position)
                guard !(type is HKCorrelationType) else {
                    throw NodeConfigurationError(
                        "\(position): correlation types cannot be shared; share their members' types"
                    )
                }
                return type
            }
            tokens.append(
                Token(
                    secret: entry.token,
                    principal: HKSource(
                        name: principal.name ?? principal.bundleIdentifier,
                        bundleIdentifier: principal.bundleIdentifier
                    ),
                    read: Set(read),
                    share: Set(share)
                )
            )
        }
        self.tokens = tokens
    }

    private struct TokenFile: Decodable {
        struct Entry: Decodable {
            var token: String
            var owner: Bool?
            var replicate: Bool?
            var principal: Principal?
            var read: [String]?
            var share: [String]?
        }

        struct Principal: Decodable {
            var name: String?
            var bundleIdentifier: String
        }

        var tokens: [Entry]
    }
}

extension AccessPolicy {
    /// The sample type a token file names, or why the file is not valid.
    fileprivate static func sampleType(
        _ name: String,
        _ position: String
    ) throws(NodeConfigurationError) -> HKSampleType {
        do {
            return try TextForms.sampleType(name)
        } catch {
            throw NodeConfigurationError("\(position): \(error.description)", underlyingError: error)
        }
    }
}
