import AnchorageTestRun
import AnchorageTesting
import Foundation
import Synchronization
import Testing

@testable import Etcd

/// The etcd client against a real three-member cluster (Debian's etcd 3.4),
/// each test on a cluster of its own, one test at a time: the members'
/// elections need the machine's cores.
@Suite("etcd client against a real three-member cluster", .serialized, .startsProcesses(weight: 2))
struct EtcdClientTests {
    /// Runs `body` with a new cluster and a client of all its members;
    /// stops both whatever happens.
    static func withCluster(
        configure: (inout EtcdClient.Configuration) -> Void = { _ in },
        _ body: (EtcdTestCluster, EtcdClient) async throws -> Void
    ) async throws {
        try await EtcdTestCluster.with { cluster in
            var configuration = EtcdClient.Configuration(endpoints: cluster.endpoints)
            configure(&configuration)
            let etcd = try EtcdClient(configuration)
            let result = await Result(catchingAsync: { try await body(cluster, etcd) })
            await etcd.shutdown()
            try result.get()
        }
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(
        "put, range (one key, a prefix, pages at one revision, keys only, count only, serializable, an old revision), delete"
    )
    func keyValues() async throws {
        try await Self.withCluster { _, etcd in
            let first = try await etcd.put("/t/a", value: Self.bytes("one"))
            try await etcd.put("/t/a", value: Self.bytes("two"))
            let one = try await etcd.range(.key("/t/a"))
            #expect(one.kvs.count == 1)
            #expect(one.kvs.first?.value == Self.bytes("two"))
            #expect(one.kvs.first?.version == 2)
            #expect(one.kvs.first?.createRevision == first.revision)
            #expect(one.kvs.first.map { $0.modRevision > $0.createRevision } == true)
            // As of the first put's revision, the old value.
            let old = try await etcd.range(.key("/t/a"), revision: first.revision)
            #expect(old.kvs.first?.value == Self.bytes("one"))

            for index in 0..<25 {
                try await etcd.put("/t/list/\(String(format: "%03d", index))", value: Self.bytes("v\(index)"))
            }
            try await etcd.put("/t/listing", value: Self.bytes("not under /t/list/"))
            let (all, revision) = try await etcd.rangeAll(.prefix("/t/list/"), pageSize: 10)
            #expect(all.map(\.keyText) == (0..<25).map { "/t/list/" + String(format: "%03d", $0) })
            #expect(all.map(\.value) == (0..<25).map { Self.bytes("v\($0)") })
            #expect(revision >= all.map(\.modRevision).max() ?? 0)
            let page = try await etcd.range(.prefix("/t/list/"), limit: 10)
            #expect(page.kvs.count == 10 && page.more && page.count == 25)
            let keys = try await etcd.range(.prefix("/t/list/"), keysOnly: true)
            #expect(keys.kvs.count == 25 && keys.kvs.allSatisfy(\.value.isEmpty))
            let counted = try await etcd.range(.prefix("/t/list/"), countOnly: true)
            #expect(counted.count == 25 && counted.kvs.isEmpty)
            let local = try await etcd.range(.prefix("/t/list/"), serializable: true)
            #expect(local.count == 25)
            let between = try await etcd.range(.range(start: "/t/list/010", end: "/t/list/013"))
            #expect(between.kvs.map(\.keyText) == ["/t/list/010", "/t/list/011", "/t/list/012"])

            let deleted = try await etcd.delete(.prefix("/t/list/"))
            #expect(deleted.deleted == 25)
            #expect(try await etcd.range(.prefix("/t/list/")).kvs.isEmpty)
            #expect(try await etcd.range(.key("/t/listing")).kvs.count == 1)
            #expect(try await etcd.range(.key("/t/missing")).kvs.isEmpty)
        }
    }

    @Test(
        "txn: create only if absent (a second create gets the record in the same answer); compare-and-swap on mod revision: one winner"
    )
    func transactions() async throws {
        try await Self.withCluster { _, etcd in
            let key = "/anchorage/stores/alice"
            func create(_ record: String) async throws -> EtcdTxnResult {
                try await etcd.txn(
                    EtcdTxn(
                        compare: [EtcdCompare(key, .equal, .createRevision(0))],
                        success: [.put(key, value: Self.bytes(record))],
                        failure: [.range(.key(key))]
                    )
                )
            }
            let created = try await create(#"{"epoch":1}"#)
            #expect(created.succeeded)
            #expect(created.responses == [.put])
            let again = try await create(#"{"epoch":9}"#)
            #expect(!again.succeeded)
            #expect(again.firstRange.first?.value == Self.bytes(#"{"epoch":1}"#))

            // Two controllers read the same revision; both compare and swap.
            let read = try #require(try await etcd.range(.key(key)).kvs.first)
            func swap(to record: String) async throws -> EtcdTxnResult {
                try await etcd.txn(
                    EtcdTxn(
                        compare: [EtcdCompare(key, .equal, .modRevision(read.modRevision))],
                        success: [.put(key, value: Self.bytes(record))],
                        failure: [.range(.key(key))]
                    )
                )
            }
            let winner = try await swap(to: #"{"epoch":2,"by":"a"}"#)
            let loser = try await swap(to: #"{"epoch":2,"by":"b"}"#)
            #expect(winner.succeeded && !loser.succeeded)
            #expect(loser.firstRange.first?.value == Self.bytes(#"{"epoch":2,"by":"a"}"#))

            // Compares on value, version and lease; a delete in the branch.
            let byValue = try await etcd.txn(
                EtcdTxn(
                    compare: [
                        EtcdCompare(key, .equal, .value(Self.bytes(#"{"epoch":2,"by":"a"}"#))),
                        EtcdCompare(key, .greater, .version(1)), EtcdCompare(key, .equal, .lease(0)),
                    ],
                    success: [.delete(.key(key))]
                )
            )
            #expect(byValue.succeeded)
            #expect(byValue.responses == [.delete(deleted: 1)])
            #expect(try await etcd.range(.key(key)).kvs.isEmpty)
        }
    }

    @Test(
        "leases: grant, keys attached, keep-alive, time to live, revoke deletes the keys, an expired lease's keys vanish"
    )
    func leases() async throws {
        try await Self.withCluster { _, etcd in
            let lease = try await etcd.grantLease(ttl: 10)
            #expect(lease.ttl == 10)
            try await etcd.put("/anchorage/nodes/n1", value: Self.bytes("{}"), lease: lease.id)
            #expect(try await etcd.range(.key("/anchorage/nodes/n1")).kvs.first?.lease == lease.id)
            let time = try await etcd.timeToLive(lease.id, keys: true)
            #expect(time.grantedTTL == 10 && time.ttl > 0 && time.ttl <= 10)
            #expect(time.keys == ["/anchorage/nodes/n1"])
            #expect(try await etcd.keepAlive(lease.id) == 10)
            try await etcd.revoke(lease.id)
            #expect(try await etcd.range(.key("/anchorage/nodes/n1")).kvs.isEmpty)
            #expect(try await etcd.keepAlive(lease.id) == 0, "a revoked lease is not renewed")
            await #expect(throws: EtcdError.self) {
                try await etcd.put("/anchorage/nodes/n1", value: Self.bytes("{}"), lease: lease.id)
            }
            do {
                try await etcd.put("/anchorage/nodes/n1", value: Self.bytes("{}"), lease: lease.id)
            } catch let error as EtcdError {
                #expect(error.isLeaseNotFound && error.code == .refused, "\(error)")
            }
            do {
                try await etcd.revoke(lease.id)
                Issue.record("revoking an ended lease is refused")
            } catch let error as EtcdError {
                #expect(error.isLeaseNotFound, "\(error)")
            }

            // Not kept alive: gone within a bound of its TTL, not before it.
            let granted = ContinuousClock.now
            let short = try await etcd.grantLease(ttl: 3)
            try await etcd.put("/anchorage/nodes/n2", value: Self.bytes("{}"), lease: short.id)
            try await waitUntil("the unrenewed lease's key vanished", timeout: 15) {
                try await etcd.range(.key("/anchorage/nodes/n2")).kvs.isEmpty
            }
            #expect(ContinuousClock.now - granted >= .milliseconds(2_500))
            #expect(try await etcd.timeToLive(short.id).ttl == -1)
        }
    }

    @Test("watch: puts and deletes in order, with previous values when asked; a compacted start revision is refused")
    func watch() async throws {
        try await Self.withCluster { _, etcd in
            let start = try await etcd.put("/w/other", value: Self.bytes("x")).revision
            let watching = Task {
                var events: [EtcdEvent] = []
                for try await response in etcd.watch(.prefix("/w/k/"), from: start + 1, previous: true) {
                    events += response.events
                    if events.count >= 3 { break }
                }
                return events
            }
            try await etcd.put("/w/k/a", value: Self.bytes("1"))
            try await etcd.put("/w/k/a", value: Self.bytes("2"))
            try await etcd.delete(.key("/w/k/a"))
            let events = try await watching.value
            #expect(events.map(\.kind) == [.put, .put, .delete])
            #expect(events.map(\.kv.keyText) == ["/w/k/a", "/w/k/a", "/w/k/a"])
            #expect(events[1].previous?.value == Self.bytes("1"))
            #expect(events[2].previous?.value == Self.bytes("2"))
            #expect(events.map(\.kv.modRevision) == events.map(\.kv.modRevision).sorted())

            // History before the compaction is gone: a watch from there is refused.
            let head = try await etcd.put("/w/other", value: Self.bytes("y")).revision
            try await etcd.compact(before: head)
            do {
                for try await _ in etcd.watch(.prefix("/w/"), from: start) {}
                Issue.record("a watch from a compacted revision is refused")
            } catch let error as EtcdError {
                #expect(error.isCompacted, "\(error)")
            }
            do {
                _ = try await etcd.range(.key("/w/other"), revision: start)
                Issue.record("a read at a compacted revision is refused")
            } catch let error as EtcdError {
                #expect(error.isCompacted && error.code == .refused, "\(error)")
            }
        }
    }

    @Test(
        "follow: a snapshot, then events; the member it watches is killed and it goes on from another, missing nothing"
    )
    func follow() async throws {
        try await Self.withCluster { cluster, etcd in
            for index in 0..<3 { try await etcd.put("/f/\(index)", value: Self.bytes("\(index)")) }
            let seen = Mutex<[String: [UInt8]]>([:])
            let snapshots = Mutex(0)
            let following = Task {
                for try await update in etcd.follow(.prefix("/f/"), pageSize: 2) {
                    switch update {
                    case .snapshot(let kvs, _):
                        snapshots.withLock { $0 += 1 }
                        seen.withLock { view in
                            view = Dictionary(uniqueKeysWithValues: kvs.map { ($0.keyText, $0.value) })
                        }
                    case .events(let events):
                        seen.withLock { view in
                            for event in events {
                                view[event.kv.keyText] = event.kind == .put ? event.kv.value : nil
                            }
                        }
                    }
                }
            }
            defer { following.cancel() }
            try await waitUntil("the snapshot holds the three keys", timeout: 10) { seen.withLock { $0.count } == 3 }
            try await etcd.put("/f/3", value: Self.bytes("3"))
            try await etcd.delete(.key("/f/0"))
            try await waitUntil("the events applied", timeout: 10) {
                seen.withLock { $0["/f/3"] != nil && $0["/f/0"] == nil }
            }
            // The client's requests (and its watch) go to the member that
            // answered last: kill that one, keep writing through the others.
            let watched = etcd.startIndex
            cluster.kill(watched)
            var written = 0
            try await waitUntil("writes go on without the killed member", timeout: 20) {
                do {
                    try await etcd.put("/f/after-\(written)", value: Self.bytes("a"))
                    written += 1
                } catch let error as EtcdError where error.code != .refused {
                    // An election, or a request lost with the member: its
                    // outcome is read back below.
                }
                return written >= 5
            }
            let expected = try await etcd.range(.prefix("/f/"))
            try await waitUntil("the view follows etcd after the kill", timeout: 20) {
                seen.withLock { view in
                    view == Dictionary(uniqueKeysWithValues: expected.kvs.map { ($0.keyText, $0.value) })
                }
            }
            #expect(snapshots.withLock { $0 } == 1, "resumed from the last revision, without reading everything again")
        }
    }

    @Test("status: the member's version, a leader, the revision")
    func status() async throws {
        try await Self.withCluster { _, etcd in
            let revision = try await etcd.put("/s", value: [1]).revision
            let status = try await etcd.status()
            #expect(status.version.hasPrefix("3."))
            #expect(status.leader != 0)
            #expect(status.header.revision >= revision)
            #expect(status.dbSize > 0)
        }
    }

    @Test(
        "authentication: a client without credentials is refused, one with them signs in and works, a wrong password is refused"
    )
    func authentication() async throws {
        try await Self.withCluster { cluster, etcd in
            // Turn authentication on: a root user with the root role.
            struct Empty: Decodable {}
            _ = try await etcd.call(
                "/v3/auth/user/add",
                .object(["name": .string("root"), "password": .string("s3cret")]),
                repeat: .never,
                as: Empty.self
            )
            _ = try await etcd.call(
                "/v3/auth/user/grant",
                .object(["user": .string("root"), "role": .string("root")]),
                repeat: .never,
                as: Empty.self
            )
            _ = try await etcd.call("/v3/auth/enable", .object([:]), repeat: .never, as: Empty.self)

            do {
                _ = try await etcd.range(.key("/a"))
                Issue.record("a request without a token is refused once authentication is on")
            } catch let error as EtcdError {
                #expect(error.code == .refused, "\(error)")
            }
            var settings = EtcdClient.Configuration(endpoints: cluster.endpoints)
            settings.credentials = ("root", "s3cret")
            let signedIn = try EtcdClient(settings)
            try await signedIn.put("/a", value: Self.bytes("b"))
            #expect(try await signedIn.range(.key("/a")).kvs.first?.value == Self.bytes("b"))
            await signedIn.shutdown()

            settings.credentials = ("root", "wrong")
            let wrong = try EtcdClient(settings)
            do {
                _ = try await wrong.range(.key("/a"))
                Issue.record("a wrong password is refused")
            } catch let error as EtcdError {
                #expect(error.code == .refused && error.message.contains("authentication failed"), "\(error)")
            }
            await wrong.shutdown()
        }
    }

    @Test("endpoints: one where nothing listens is passed over (not sent); a bad endpoint list is refused at once")
    func failover() async throws {
        let dead = "http://127.0.0.1:\(try freeLoopbackPort())"
        let withDead: (inout EtcdClient.Configuration) -> Void = { $0.endpoints.insert(dead, at: 0) }
        try await Self.withCluster(configure: withDead) { cluster, etcd in
            try await etcd.put("/e", value: [1])
            #expect(try await etcd.range(.key("/e")).kvs.count == 1)
            #expect(etcd.startIndex != 0, "the answering member is tried first from now on")
            // No member at all: not sent, so safe to try again later.
            let nowhere = try EtcdClient(.init(endpoints: [dead]))
            do {
                try await nowhere.put("/e", value: [2])
                Issue.record("nothing listens")
            } catch let error as EtcdError {
                #expect(error.code == .notSent, "\(error)")
            }
            await nowhere.shutdown()
            _ = cluster
        }
        #expect(throws: EtcdError.self) { try EtcdClient(.init(endpoints: [])) }
        #expect(throws: EtcdError.self) { try EtcdClient(.init(endpoints: ["ftp://127.0.0.1:1"])) }
    }

    @Test(
        "a member that takes the request and never answers: a write is no answer and is not sent elsewhere; a read moves on"
    )
    func ambiguousWrite() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let withSilent: (inout EtcdClient.Configuration) -> Void = {
            $0.endpoints.insert("http://127.0.0.1:\(silent.port)", at: 0)
            $0.requestTimeout = .milliseconds(500)
        }
        try await Self.withCluster(configure: withSilent) { _, etcd in
            do {
                try await etcd.put("/amb", value: [1])
                Issue.record("a write without an answer fails")
            } catch let error as EtcdError {
                #expect(error.code == .noAnswer, "\(error)")
            }
            // Never sent elsewhere: the other members do not hold it.
            let read = try await etcd.range(.key("/amb"))
            #expect(read.kvs.isEmpty)
            #expect(etcd.startIndex != 0, "the read answered by another member")
        }
    }
}
