import AnchorageLog
import AnchorageStoreTesting
import Foundation
import Testing

@testable import Anchorage

@Suite("States of mind and scored assessments")
struct StateOfMindTests {
    @Test(
        "MIND-1: states of mind saved with HealthKit's initializer come back with their fields; each predicate finds exactly its matches"
    )
    func statesOfMind() async throws {
        try await withTemporaryStore { store, _ in
            let moods = [
                HKStateOfMind(
                    date: minutes(0),
                    kind: .dailyMood,
                    valence: 0.6,
                    labels: [.content, .grateful],
                    associations: [.family]
                ),
                HKStateOfMind(
                    date: minutes(1),
                    kind: .momentaryEmotion,
                    valence: -0.8,
                    labels: [.stressed],
                    associations: [.work, .money]
                ),
                HKStateOfMind(date: minutes(2), kind: .momentaryEmotion, valence: 0, labels: [], associations: []),
            ]
            try await store.save(moods)
            let all = try await HKSampleQueryDescriptor(
                predicates: [.stateOfMind()],
                sortDescriptors: [SortDescriptor(\.startDate)]
            )
            .result(for: store)
            #expect(all.map(\.valence) == [0.6, -0.8, 0])
            #expect(all.map(\.labels) == [[.content, .grateful], [.stressed], []])
            #expect(all.map(\.valenceClassification) == [.pleasant, .veryUnpleasant, .neutral])
            func uuids(_ predicate: NSPredicate) async throws -> [UUID] {
                try await HKSampleQueryDescriptor(
                    predicates: [.stateOfMind(predicate)],
                    sortDescriptors: [SortDescriptor(\.startDate)]
                )
                .result(for: store).map(\.uuid)
            }
            #expect(
                try await uuids(HKQuery.predicateForStatesOfMind(withValence: 0, operatorType: .lessThan)) == [
                    moods[1].uuid
                ]
            )
            #expect(
                try await uuids(HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Kind.momentaryEmotion)) == [
                    moods[1].uuid, moods[2].uuid,
                ]
            )
            #expect(
                try await uuids(HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Label.grateful)) == [moods[0].uuid]
            )
            #expect(
                try await uuids(HKQuery.predicateForStatesOfMind(with: HKStateOfMind.Association.money)) == [
                    moods[1].uuid
                ]
            )
            #expect(try await store.eventLog().checkProjections() == nil)
        }
    }

    @Test("MIND-1: the valence's seven bands; out-of-range valences and repeated labels are refused")
    func valence() {
        #expect(HKStateOfMind.ValenceClassification(valence: -1) == .veryUnpleasant)
        #expect(HKStateOfMind.ValenceClassification(valence: 1) == .veryPleasant)
        #expect(HKStateOfMind.ValenceClassification(valence: 0) == .neutral)
        #expect(HKStateOfMind.ValenceClassification(valence: 1.01) == nil)
        #expect(HKStateOfMind.ValenceClassification(valence: .nan) == nil)
        #expect(throws: HKError.self) {
            try HKStateOfMind.validated(date: minutes(0), kind: .dailyMood, valence: 2, labels: [], associations: [])
        }
        #expect(throws: HKError.self) {
            try HKStateOfMind.validated(
                date: minutes(0),
                kind: .dailyMood,
                valence: 0,
                labels: [.sad, .sad],
                associations: []
            )
        }
    }

    @Test(
        "ASSESS-1: GAD-7 and PHQ-9 scores and risks from their answers; the wrong number of answers or a declined question other than the ninth is refused"
    )
    func assessments() async throws {
        try await withTemporaryStore { store, _ in
            let gad = HKGAD7Assessment(
                date: minutes(0),
                answers: [
                    .nearlyEveryDay, .moreThanHalfTheDays, .severalDays, .severalDays, .notAtAll, .nearlyEveryDay,
                    .severalDays,
                ]
            )
            #expect(gad.score == 11)
            #expect(gad.risk == .moderate)
            let phq = HKPHQ9Assessment(
                date: minutes(1),
                answers: Array(repeating: .moreThanHalfTheDays, count: 8) + [.preferNotToAnswer]
            )
            #expect(phq.score == 16)
            #expect(phq.risk == .moderatelySevere)
            try await store.save([gad, phq])
            let gads = try await HKSampleQueryDescriptor(predicates: [.gad7Assessment()], sortDescriptors: []).result(
                for: store
            )
            #expect(gads.map(\.answers) == [gad.answers])
            let phqs = try await HKSampleQueryDescriptor(predicates: [.phq9Assessment()], sortDescriptors: []).result(
                for: store
            )
            #expect(phqs.map(\.score) == [16])
            #expect(phqs.first?.answers.last == .preferNotToAnswer)
        }
        let gad7 = TypeCatalog.scoredAssessmentTypes[.GAD7]!
        let phq9 = TypeCatalog.scoredAssessmentTypes[.PHQ9]!
        for (type, answers) in [
            (gad7, [0, 1, 2]), (gad7, Array(repeating: 4, count: 7)), (phq9, [4] + Array(repeating: 0, count: 8)),
            (phq9, Array(repeating: 0, count: 10)),
        ] {
            #expect(throws: HKError.self, "\(type.identifier) \(answers)") {
                try HKScoredAssessment.make(
                    type: type,
                    answers: answers,
                    .new(start: minutes(0), end: minutes(0), device: nil, metadata: nil)
                )
            }
        }
    }
}
