import Testing

@testable import AnchorageServer

@Suite("Forwarded requests: how long a node waits for the primary's answer to begin")
struct ForwardingDeadlineTests {
    @Test("the longer of the lease and the replica acknowledgement, plus 2 s, plus a long-poll's wait (0…60 s)")
    func durations() {
        let deadline = ForwardingDeadline(leaseTTL: .seconds(10), replicaAcknowledgement: .seconds(5))
        #expect(deadline.duration(path: "/v1/stores/a/samples", query: nil) == .seconds(12))
        #expect(deadline.duration(path: "/v1/stores/a/changes", query: "types=stepCount&wait=25") == .seconds(37))
        #expect(deadline.duration(path: "/v1/stores/a/changes", query: "wait=600") == .seconds(72))
        #expect(deadline.duration(path: "/v1/stores/a/changes", query: "wait=-5") == .seconds(12))
        #expect(deadline.duration(path: "/v1/stores/a/changes", query: "wait=soon&limit=3") == .seconds(12))
        #expect(deadline.duration(path: "/v1/stores/a/changes", query: "await=30") == .seconds(12))
        let acknowledging = ForwardingDeadline(leaseTTL: .seconds(3), replicaAcknowledgement: .seconds(5))
        #expect(acknowledging.duration(path: "/v1/stores/a/samples", query: "") == .seconds(7))
        let noReplicas = ForwardingDeadline(leaseTTL: .seconds(3), replicaAcknowledgement: nil)
        #expect(noReplicas.duration(path: "/v1/stores/a/samples", query: nil) == .seconds(5))
    }
}
