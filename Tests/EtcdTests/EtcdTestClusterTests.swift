import AnchorageTestRun
import Foundation
import Testing

@testable import AnchorageTesting

/// The test cluster itself: the ports it is started on, and how it tells
/// its own members from another cluster's (a flaky test once ran against a
/// port another test's etcd had taken).
@Suite("etcd test clusters: ports and membership", .serialized, .startsProcesses(weight: 2))
struct EtcdTestClusterTests {
    @Test("free ports: below the kernel's range for outgoing connections, never the same twice in a process")
    func ports() async throws {
        let ports = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask { try (0..<250).map { _ in try freeLoopbackPort() } }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(ports.count == 2_000)
        #expect(Set(ports).count == ports.count)
        #expect(ports.allSatisfy { (10_000..<20_000).contains($0) })
    }

    @Test("every member of a cluster reports one cluster id; another cluster's members report another")
    func membership() async throws {
        try await EtcdTestCluster.with { first in
            try await first.checkOwnMembers()
            let ids = first.members.map { EtcdTestCluster.clusterID(port: $0.clientPort) }
            #expect(ids.allSatisfy { $0 != nil })
            #expect(Set(ids).count == 1)
            try await EtcdTestCluster.with { second in
                try await second.checkOwnMembers()
                let other = EtcdTestCluster.clusterID(port: second.members[0].clientPort)
                #expect(other != nil && other != ids[0])
            }
            // A member that is not running is not one of the cluster's.
            first.kill(1)
            await #expect(throws: EtcdTestClusterError.self) { try await first.checkOwnMembers() }
        }
    }
}
