import Anchorage
import AnchorageService
import AnchorageSync
import ArgumentParser
import Foundation

/// `anchorage demo`: fills a store with a realistic dataset, runs the
/// classic HealthKit scenarios on it, and says what to try next.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Create a store with twelve weeks of realistic data and run HealthKit's classic queries on it.",
        discussion: """
            It also creates a second store beside the first (the same directory with "-peer" appended) and \
            replicates with it. Running it again on the same day adds nothing to either store: the demo's \
            samples have ids derived from their content, and the walk-throughs that save and delete (the \
            anchored pulls, the replication) run only when the demo saved new data.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(parsing: .unconditional, help: "How many days of data, ending yesterday: 7 to 3660.")
    var days = 84

    func validate() throws {
        guard (7...3_660).contains(days) else { throw ValidationError("--days must be from 7 to 3660") }
    }

    func run() async throws {
        let output = CLIOutput.current
        let zone = TimeZone.current
        let dataset = DemoDataset(days: days, zone: zone)
        let store = try await storeOptions.openStore()
        let saved: Int
        do {
            output.line("Anchorage demo: store \(storeOptions.directory.path)")
            let contents = try dataset.contents()
            var added = try await store.saveIfAbsent(contents.objects)
            for (run, route) in contents.routes {
                added += try await store.saveIfAbsent([route], linkingTo: run)
            }
            saved = added
            let all = contents.objects.count + contents.routes.count
            output.line(
                "Saved \(saved) new objects (\(all - saved) already there): \(days) days of steps from a phone "
                    + "and a watch, heart rate, active energy, sleep, meals, blood pressure, and runs with their routes."
            )
            output.line("")
            try await weeklySteps(store, dataset: dataset, output: output)
            try await highCalorieFoods(store, output: output)
            if saved > 0 {
                try await anchoredPull(store, dataset: dataset, output: output)
            }
        } catch {
            await store.close()
            throw CommandFailure(description: "the demo failed: \(ErrorWords.describe(error))")
        }
        let peerDirectory = URL(fileURLWithPath: storeOptions.directory.path + "-peer")
        if saved > 0 {
            let peer = HKHealthStore(directory: peerDirectory)
            do {
                try await replication(store, peer: peer, peerDirectory: peerDirectory, dataset: dataset, output: output)
            } catch {
                await peer.close()
                await store.close()
                throw CommandFailure(description: "the demo's replication failed: \(ErrorWords.describe(error))")
            }
            await peer.close()
        } else {
            output.line(
                "3. and 4. (anchored pulls; replication with \(peerDirectory.path)) save and delete samples: they ran "
                    + "when the demo filled this store, and run again only when it adds data. This run added nothing."
            )
            output.line("")
        }
        await store.close()
        let first = dataset.calendar.date(byAdding: .day, value: -7, to: dataset.end)!
        let day = { (date: Date) in date.formatted(.iso8601.year().month().day().dateSeparator(.dash)) }
        output.line(
            """
            What to try next (Scripts/anchorage runs the same commands):
              anchorage stats --type heartRate --options average,min,max --from \(day(first)) --to \(day(dataset.end)) --chart
              anchorage samples --type bloodPressure --format table --limit 5
              anchorage serve                       # then, in another terminal:
              anchorage serve --store \(peerDirectory.path) --port 8081 --peer http://127.0.0.1:8080
              curl 'http://127.0.0.1:8080/v1/changes?types=stepCount&limit=3'
              curl 'http://127.0.0.1:8080/v1/changes?types=stepCount&stream=ndjson&since=<newAnchor>'
              anchorage import ~/Downloads/apple_health_export/export.xml   # your own Health data
            """
        )
    }

    /// The seed listing: weekly step counts anchored on Monday 03:00.
    private func weeklySteps(_ store: HKHealthStore, dataset: DemoDataset, output: CLIOutput) async throws {
        let calendar = dataset.calendar
        var anchorComponents = calendar.dateComponents([.day, .month, .year, .weekday], from: dataset.end)
        anchorComponents.day! -= (7 + anchorComponents.weekday! - 2) % 7
        anchorComponents.hour = 3
        let anchorDate = calendar.date(from: anchorComponents)!
        var interval = DateComponents(day: 7)
        interval.timeZone = calendar.timeZone
        let collection = try await HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: HKQuantityType(.stepCount)),
            options: .cumulativeSum,
            anchorDate: anchorDate,
            intervalComponents: interval
        ).result(for: store)
        // From the first week the data covers whole.
        let dataStart = calendar.date(byAdding: .day, value: -dataset.days, to: dataset.end)!
        var start = anchorDate
        while let earlier = calendar.date(byAdding: .day, value: -7, to: start), earlier >= dataStart {
            start = earlier
        }
        let table = StatisticsTable(
            collection,
            from: start,
            to: dataset.end,
            unit: .count(),
            timeZone: calendar.timeZone
        )
        output.line("1. Weekly steps, weeks starting Monday 03:00 (HKStatisticsCollectionQuery).")
        output.line("   The phone and the watch overlap; the merged sum counts each step once.")
        for line in table.chart(width: 40) { output.line(line) }
        output.line("")
    }

    /// The seed listing: foods of at least 800 kcal (HKCorrelationQuery).
    private func highCalorieFoods(_ store: HKHealthStore, output: CLIOutput) async throws {
        let highCalorie = HKQuery.predicateForQuantitySamples(
            with: .greaterThanOrEqualTo,
            quantity: HKQuantity(unit: .kilocalorie(), doubleValue: 800)
        )
        let energy = HKQuantityType(.dietaryEnergyConsumed)
        let foods: [HKCorrelation] = try await withCheckedThrowingContinuation { continuation in
            store.execute(
                HKCorrelationQuery(
                    type: HKCorrelationType(.food),
                    predicate: nil,
                    samplePredicates: [energy: highCalorie]
                ) { _, results, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: results ?? [])
                    }
                }
            )
        }
        var counts: [String: (count: Int, kilocalories: Double)] = [:]
        for food in foods {
            let name = food.metadata?[HKMetadataKeyFoodType] as? String ?? "?"
            let kilocalories =
                (food.objects(for: energy).first as? HKQuantitySample)?.quantity
                .doubleValue(for: .kilocalorie()) ?? 0
            counts[name, default: (0, kilocalories)].count += 1
        }
        output.line("2. Meals of at least 800 kcal (HKCorrelationQuery): \(foods.count) in all.")
        for (name, entry) in counts.sorted(by: { $0.value.count > $1.value.count }) {
            let kilocalories = NumberText.readable(entry.kilocalories)
            let padded = String(repeating: " ", count: max(0, 5 - kilocalories.count)) + kilocalories
            output.line("   \(name.padding(toLength: 18, withPad: " ", startingAt: 0)) \(padded) kcal  ×\(entry.count)")
        }
        output.line("")
    }

    /// The seed listing: an anchored pull that resumes from its anchor.
    private func anchoredPull(_ store: HKHealthStore, dataset: DemoDataset, output: CLIOutput) async throws {
        let steps = HKQuantityType(.stepCount)
        func pull(from anchor: HKQueryAnchor?) async throws -> HKAnchoredObjectQueryDescriptor<HKQuantitySample>.Result
        {
            try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: anchor)
                .result(for: store)
        }
        let first = try await pull(from: nil)
        output.line("3. Anchored pulls of step samples (HKAnchoredObjectQuery).")
        output.line("   From the beginning: \(first.addedSamples.count) samples; anchor \(first.newAnchor.stringValue)")
        let walk = HKQuantitySample(
            type: steps,
            quantity: HKQuantity(unit: .count(), doubleValue: 1_234),
            start: dataset.end.addingTimeInterval(-1_800),
            end: dataset.end.addingTimeInterval(-600)
        )
        try await store.save(walk)
        let second = try await pull(from: first.newAnchor)
        output.line(
            "   After saving one walk, from that anchor: \(second.addedSamples.count) added, \(second.deletedObjects.count) deleted"
        )
        try await store.delete(walk)
        let third = try await pull(from: second.newAnchor)
        output.line(
            "   After deleting it, from the next anchor: \(third.addedSamples.count) added, \(third.deletedObjects.count) deleted"
        )
        output.line("   A consumer that keeps its anchor never reads anything twice.")
        output.line("")
    }

    /// Two peers: a second store replicates with this one, both ways.
    private func replication(
        _ store: HKHealthStore,
        peer: HKHealthStore,
        peerDirectory: URL,
        dataset: DemoDataset,
        output: CLIOutput
    ) async throws {
        let replicator = PeerReplicator(
            log: try peer.eventLog(),
            peer: InMemoryTransport(serving: try store.eventLog())
        )
        output.line("4. Replication (AnchorageSync): a second store, \(peerDirectory.path), syncs with this one.")
        let first = try await replicator.sync(.both)
        output.line(
            "   Sync: the peer pulled \(first.pulled?.applied ?? 0) new entries in \(first.pulled?.batches ?? 0) batches "
                + "(the first run pulls everything, later ones only what is new)."
        )
        let steps = HKQuantityType(.stepCount)
        let walk = HKQuantitySample(
            type: steps,
            quantity: HKQuantity(unit: .count(), doubleValue: 2_500),
            start: dataset.end.addingTimeInterval(-3_600),
            end: dataset.end.addingTimeInterval(-2_400)
        )
        let anchor = try store.currentAnchor()
        try await peer.save(walk)
        try await replicator.sync(.both)
        let seen = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: anchor)
            .result(for: store)
        output.line(
            "   A walk saved on the peer, one sync later: this store's anchored pull reports \(seen.addedSamples.count) added."
        )
        try await store.delete(walk)
        try await replicator.sync(.both)
        let onPeer = try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: steps, predicate: HKQuery.predicateForObject(with: walk.uuid))],
            sortDescriptors: []
        ).result(for: peer)
        let total = { (target: HKHealthStore) in
            try await HKStatisticsQueryDescriptor(predicate: .quantitySample(type: steps), options: .cumulativeSum)
                .result(for: target)?.sumQuantity()?.doubleValue(for: .count()) ?? 0
        }
        let (mine, theirs) = (try await total(store), try await total(peer))
        output.line(
            "   Deleted here, one sync later: the peer shows it \(onPeer.isEmpty ? "no more" : "still")."
                + " All-time steps: \(NumberText.readable(mine)) here, \(NumberText.readable(theirs)) on the peer."
        )
        output.line("")
    }
}
