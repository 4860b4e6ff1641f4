import AnchorageStoreTesting
import Foundation
import Testing

@testable import Anchorage

/// `saveIfAbsent(_:)`: saving the same objects again adds nothing.
@Suite("Idempotent saves")
struct StoreIdempotentSaveTests {
    @Test("Saving again adds nothing, and a deleted object stays deleted")
    func again() async throws {
        try await withTemporaryStore { store, _ in
            let batch = (0..<5).map { steps(Double($0 + 1), atMinute: Double($0)) }
            #expect(try await store.saveIfAbsent(batch) == 5)
            #expect(try await store.saveIfAbsent(batch) == 0)
            try await store.delete(batch[0])
            #expect(try await store.saveIfAbsent(batch) == 0, "a deleted uuid is known")
            let extra = steps(99, atMinute: 50)
            #expect(try await store.saveIfAbsent(batch + [extra]) == 1)
            #expect(try await samples(in: store, of: stepType).count == 5)
            await expectCode(.errorInvalidArgument) { try await store.save(batch[1]) }
        }
    }

    @Test("Concurrent idempotent saves of the same objects save each once, without errors")
    func concurrent() async throws {
        try await withTemporaryStore { store, _ in
            let batch = (0..<50).map { steps(1, atMinute: Double($0)) }
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 { group.addTask { try await store.saveIfAbsent(batch) } }
                return try await group.reduce(0, +)
            }
            #expect(counts == 50)
            #expect(try await samples(in: store, of: stepType).count == 50)
        }
    }

    @Test("A correlation whose members the store already holds joins them instead of saving them again (CQ-1)")
    func correlationOfKnownMembers() async throws {
        try await withTemporaryStore { store, _ in
            let meal = food("lunch", kilocalories: 900, protein: 30)
            let members = Array(meal.objects)
            #expect(try await store.saveIfAbsent(members) == 2)
            #expect(try await store.saveIfAbsent([meal]) == 1)
            #expect(try await store.saveIfAbsent([meal]) == 0)
            let found = try await samples(in: store, of: HKCorrelationType(.food)).compactMap { $0 as? HKCorrelation }
            #expect(found.count == 1)
            #expect(Set(found.first?.objects.map(\.uuid) ?? []) == Set(members.map(\.uuid)))
            #expect(try await samples(in: store, of: energyType).count == 1, "saved once")
        }
    }
}
