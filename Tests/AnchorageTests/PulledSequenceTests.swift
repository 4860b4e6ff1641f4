import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// The series descriptors' sequences make each point when it is asked for:
/// a consumer that stops early, or reads slowly, holds no points made ahead.
@Suite("Pulled query results")
struct PulledSequenceTests {
    @Test("SERIES-1: the store is read once, at the first next(), and only the points asked for are made")
    func madeOnDemand() async throws {
        let counter = LockedBox((loads: 0, made: 0))
        let sequence = QueryResultSequence<Int>(pulling: {
            counter.mutate { $0.loads += 1 }
            return (
                0..<1_000_000,
                { index in
                    counter.mutate { $0.made += 1 }
                    return index * 2
                }
            )
        })
        #expect(counter.value.loads == 0, "nothing is read before the first next()")
        var firsts: [Int] = []
        for try await value in sequence {
            firsts.append(value)
            if firsts.count == 5 { break }
        }
        #expect(firsts == [0, 2, 4, 6, 8])
        #expect(counter.value.loads == 1 && counter.value.made == 5)
    }

    @Test("SERIES-4: an error from the read ends the sequence with it")
    func loadError() async {
        let sequence = QueryResultSequence<Int>(pulling: {
            throw HKError(.errorNoData, rule: "SERIES-4", "no such series")
        })
        await #expect(throws: HKError.self) {
            for try await _ in sequence {}
        }
    }
}
