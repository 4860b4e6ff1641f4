import AnchorageClient
import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

/// `StoreChangesFollower` against a stand-in node that answers `503` for a
/// while, as a fleet node does while a store's primary is replaced.
@Suite("StoreChangesFollower: a node answering 503 for a moment")
struct ClientFollowerRetryTests {
    static func json(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: body))
        )
    }

    static let unavailable = #"{"code":"fleetUnavailable","message":"the store's primary could not be reached"}"#

    /// A node whose feed names store `a` once, and whose routes answer 503
    /// the first `refusals` times each; the requests it received.
    final class Asked: Sendable {
        let counts = Mutex<[String: Int]>([:])

        /// Counts one more request to `route`; how many there were.
        func next(_ route: String) -> Int {
            counts.withLock { counts in
                counts[route, default: 0] += 1
                return counts[route]!
            }
        }
    }

    static func node(refusals: Int) -> (Router<BasicRequestContext>, Asked) {
        let asked = Asked()
        let router = Router()
        router.get("/v1/store-updates") { _, _ in
            let count = asked.next("updates")
            guard count > refusals else { return json(.serviceUnavailable, unavailable) }
            let cursor = "0123456789abcdef01234567-9-1"
            return json(
                .ok,
                #"{"hasMore":false,"newCursor":"\#(cursor)","updates":[{"anchor":"AQ","cursor":"\#(cursor)","#
                    + #""kind":"changed","since":null,"store":"a"}]}"#
            )
        }
        router.get("/v1/stores/a/changes") { _, _ in
            let count = asked.next("changes")
            guard count > refusals else { return json(.serviceUnavailable, unavailable) }
            return json(
                .ok,
                #"{"added":[\#(stepJSON(5))],"deleted":[],"activitySummaries":[],"newAnchor":"AQ","hasMore":false}"#
            )
        }
        return (router, asked)
    }

    @Test(
        "a 503 from the feed and from a store's changes is asked again until answered; the update's objects come once"
    )
    func retriedUntilAnswered() async throws {
        let (router, asked) = Self.node(refusals: 2)
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            let url = URL(string: "http://127.0.0.1:\(try #require(client.port))")!
            let follower = StoreChangesFollower(serverURL: url, token: "t", retryingFor: .seconds(30))
            var added = 0
            var cursors: [String] = []
            try await follower.follow(from: nil, once: true) { event in
                switch event {
                case .changes(_, let page): added += page.added.count
                case .updateRead(let cursor): cursors.append(cursor)
                case .storeDeleted: Issue.record("no store was deleted")
                }
            }
            #expect(added == 1 && cursors == ["0123456789abcdef01234567-9-1"])
            #expect(asked.counts.withLock { $0 } == ["updates": 3, "changes": 3])
        }
    }

    @Test("past retryingFor, the 503 is thrown with the node's code")
    func givesUp() async throws {
        let (router, _) = Self.node(refusals: .max)
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            let url = URL(string: "http://127.0.0.1:\(try #require(client.port))")!
            let follower = StoreChangesFollower(serverURL: url, token: "t", retryingFor: .milliseconds(300))
            let error = await #expect(throws: AnchorageClientError.self) {
                try await follower.follow(from: nil, once: true) { _ in }
            }
            #expect(error?.status == 503 && error?.code == "fleetUnavailable")
        }
    }

    @Test(
        "an update's since refused as 410 anchorNotValid (a store restored) reads the store from its beginning, not skips it"
    )
    func anchorNotValidReadsAll() async throws {
        let router = Router()
        router.get("/v1/store-updates") { _, _ in
            let cursor = "0123456789abcdef01234567-9-1"
            return Self.json(
                .ok,
                #"{"hasMore":false,"newCursor":"\#(cursor)","updates":[{"anchor":"AQ","cursor":"\#(cursor)","#
                    + #""kind":"changed","since":"OLD","store":"a"}]}"#
            )
        }
        router.get("/v1/stores/a/changes") { request, _ in
            guard request.uri.queryParameters["since"] == nil else {
                return Self.json(.gone, #"{"code":"anchorNotValid","message":"the anchor is from before a restore"}"#)
            }
            return Self.json(
                .ok,
                #"{"added":[\#(stepJSON(5))],"deleted":[],"activitySummaries":[],"newAnchor":"AQ","hasMore":false}"#
            )
        }
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            let url = URL(string: "http://127.0.0.1:\(try #require(client.port))")!
            var added = 0
            try await StoreChangesFollower(serverURL: url, token: "t").follow(from: nil, once: true) { event in
                if case .changes(_, let page) = event { added += page.added.count }
            }
            #expect(added == 1)
        }
    }

    @Test(
        "a node that never answered (a wrong URL) is thrown at once as unreachable, not asked again",
        .timeLimit(.minutes(1))
    )
    func wrongURL() async throws {
        // A port nothing listens on: one a server held a moment ago.
        let application = Application(router: Router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let port = try await application.test(.live) { client in try #require(client.port) }
        let url = URL(string: "http://127.0.0.1:\(port)")!
        // A pool that does not itself try again to connect (the shared one does, until the request's timeout).
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let follower = StoreChangesFollower(serverURL: url, token: "t", httpClient: http, retryingFor: .seconds(3_600))
        let error = await #expect(throws: AnchorageClientError.self) {
            try await follower.follow(from: nil, once: true) { _ in }
        }
        try await http.shutdown()
        #expect(error?.code == .unreachable)
    }
}
