import Anchorage
import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AppleHealthImport

/// An export with routes both ways (a GPX file, inline `Location`s), a
/// route file missing from the export, a per-beat list crossing midnight,
/// and two ECG files (one with its header in another language), written
/// from ../shared/reference/health-export-format.md
/// ("Series, recordings and clinical data beside the records").
@Suite("Exports with routes, heartbeats and ECGs")
struct SeriesImportTests {
    static let folder = fixtureFile("export-v14-routes")

    @Test(
        "SERIES-1, SERIES-2, ECG-1: routes both ways, a missing route file, heartbeats across midnight and ECG files, counted; a second import adds nothing"
    )
    func folderImport() async throws {
        try await withImportStore { store in
            let summary = try await HealthExportImporter(store: store, batchSize: 2).importExport(at: Self.folder)
            try await Self.expectContents(summary, store)
            try await expectAuditPasses(store)
            let again = try await expectImportAddsNothing(Self.folder, into: store, batchSize: 2)
            #expect(again.alreadyPresent == 14)
            #expect(again.missingFiles == 2)
        }
    }

    @Test("The same export as the Health app's zip: the side files are read from the zip")
    func zipImport() async throws {
        let base = Self.folder.appendingPathComponent("apple_health_export")
        var entries: [(String, [UInt8])] = []
        let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)!
        for case let file as URL in files where !file.hasDirectoryPath {
            let relative = String(file.path.dropFirst(base.path.count + 1))
            entries.append(("apple_health_export/" + relative, Array(try Data(contentsOf: file))))
        }
        let zip = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-routes-\(UUID()).zip")
        defer { try? FileManager.default.removeItem(at: zip) }
        try writeZip(entries.sorted { $0.0 < $1.0 }, to: zip)
        try await withImportStore { store in
            let summary = try await HealthExportImporter(store: store).importExport(at: zip)
            try await Self.expectContents(summary, store)
            try await expectAuditPasses(store)
            try await expectImportAddsNothing(zip, into: store)
        }
    }

    static func expectContents(_ summary: HealthExportImporter.Summary, _ store: HKHealthStore) async throws {
        #expect(
            summary.read == [
                "Record": 2, "HeartRateVariabilityMetadataList": 2, "Workout": 3, "WorkoutRoute": 2,
                "Electrocardiogram": 2, "Audiogram": 1, "ClinicalRecord": 2,
            ]
        )
        #expect(
            summary.saved == 14,
            "2 records, their heartbeats, 3 workouts, 2 routes, 2 ECGs, an audiogram, 2 clinical records"
        )
        #expect(summary.shiftedHeartbeatLists == 1, "the list an hour behind its record")
        #expect(summary.rejected.isEmpty, "\(summary.rejected)")
        #expect(summary.missingFiles == 2, "a route file and a clinical record's FHIR file")
        #expect(summary.firstMissingFile == "/workout-routes/route_2025-09-17_7.20am.gpx")
        #expect(summary.skippedHeartbeats == 1, "the repeated last beat")

        // The GPX route, associated with its run.
        let workouts = try await samples(store, HKWorkoutType.workoutType()).compactMap { $0 as? HKWorkout }
        let run = try #require(workouts.first { $0.workoutActivityType == .running })
        let linked = try await HKSampleQueryDescriptor(
            predicates: [.workoutRoute(HKQuery.predicateForObjects(from: run))],
            sortDescriptors: []
        ).result(for: store)
        #expect(linked.map(\.count) == [600])
        #expect(linked.first?.metadata?[HKMetadataKeySyncVersion] as? Int == 2)
        var track: [CLLocation] = []
        for try await location in HKWorkoutRouteQueryDescriptor(linked[0]).results(for: store) {
            track.append(location)
        }
        #expect(track.count == 600)
        #expect(track.first?.coordinate == CLLocationCoordinate2D(latitude: 47.6205, longitude: -122.3493))
        #expect(track.first?.timestamp == run.startDate)
        #expect(track.last?.timestamp == run.startDate.addingTimeInterval(599))
        #expect(track.first?.horizontalAccuracy == 3.1)
        #expect(track.first?.verticalAccuracy == 1.0)
        #expect(track.first?.speed == 0.8)
        #expect(track.first?.course == 2.9)
        #expect(track.first?.altitude == 35.2)

        // The inline route of the 2019 walk, with units after its numbers.
        let walk = try #require(workouts.first { $0.workoutActivityType == .walking })
        let inline = try await HKSampleQueryDescriptor(
            predicates: [.workoutRoute(HKQuery.predicateForObjects(from: walk))],
            sortDescriptors: []
        ).result(for: store)
        var walkTrack: [CLLocation] = []
        for try await location in HKWorkoutRouteQueryDescriptor(inline[0]).results(for: store) {
            walkTrack.append(location)
        }
        #expect(walkTrack.map(\.altitude) == [519.2, 520.2, 521.2, 522.2, 523.2])
        #expect(walkTrack.map(\.horizontalAccuracy) == [4.9, 5.0, 5.1, 5.2, 5.3])
        #expect(walkTrack.first?.timestamp == walk.startDate.addingTimeInterval(5))

        // Heartbeats from 23:59:58 -0700 across midnight.
        let allSeries = try await samples(store, HKSeriesType.heartbeat()).compactMap { $0 as? HKHeartbeatSeriesSample }
            .sorted { $0.startDate < $1.startDate }
        #expect(allSeries.count == 2)
        let series = try #require(allSeries.first)
        let beats = try await HKHeartbeatSeriesQueryDescriptor(series).results(for: store)
            .reduce(into: [Double]()) { $0.append($1.timeIntervalSinceStart) }
        #expect(beats == [0.91, 1.93, 2.95, 3.93])
        // The list an hour behind its record's offset, moved into the record (from 06:30:29 -0700).
        let behind = try await HKHeartbeatSeriesQueryDescriptor(allSeries[1]).results(for: store)
            .reduce(into: [Double]()) { $0.append($1.timeIntervalSinceStart) }
        #expect(behind == [8.8, 9.94, 11.04])

        // CLIN-1: clinical records with their FHIR files, typed by their FHIR type and category.
        let immunizations = try await HKSampleQueryDescriptor(
            predicates: [.clinicalRecord(type: HKClinicalType(.immunizationRecord))],
            sortDescriptors: []
        ).result(for: store)
        let flu = try #require(immunizations.first)
        #expect(flu.displayName == "Influenza, seasonal, injectable")
        #expect(flu.fhirResource?.fhirVersion.fhirRelease == .dstu2)
        #expect(flu.fhirResource?.identifier == "imm-5521")
        let fhirText = String(decoding: flu.fhirResource?.data ?? Data(), as: UTF8.self)
        #expect(fhirText.hasPrefix(#"{"resourceType":"Immunization""#))
        let vitals = try await HKSampleQueryDescriptor(
            predicates: [
                .clinicalRecord(
                    type: HKClinicalType(.vitalSignRecord),
                    predicate: HKQuery.predicateForClinicalRecords(withFHIRResourceType: .observation)
                )
            ],
            sortDescriptors: []
        ).result(for: store)
        #expect(vitals.map(\.displayName) == ["Blood pressure"])

        // AUD-1: the audiogram, each ear an unmasked air-conduction test; the right ear not measured at 8 kHz.
        let audiogram = try #require(
            try await HKSampleQueryDescriptor(predicates: [.audiogram()], sortDescriptors: []).result(for: store).first
        )
        #expect(
            audiogram.sensitivityPoints.map { $0.frequency.doubleValue(for: .hertz()) } == [
                250, 500, 1_000, 2_000, 4_000, 8_000,
            ]
        )
        #expect(audiogram.sensitivityPoints.map(\.tests.count) == [2, 2, 2, 2, 2, 1])
        let low = try #require(audiogram.sensitivityPoints.first?.tests.first { $0.side == .left })
        #expect(low.sensitivity.doubleValue(for: .decibelHearingLevel()) == 10.2184)
        #expect(low.type == .air && !low.masked && low.clampingRange == nil)
        #expect(audiogram.metadata?[HKMetadataKeyDeviceName] as? String == "AirPods Pro")

        // The ECGs: English labels mapped, the other language read by position.
        let ecgs = try await HKSampleQueryDescriptor(predicates: [.electrocardiogram()], sortDescriptors: [])
            .result(for: store).sorted { $0.startDate < $1.startDate }
        #expect(ecgs.map(\.numberOfVoltageMeasurements) == [15_360, 1_024])
        #expect(ecgs.map(\.classification) == [.sinusRhythm, .unrecognized])
        #expect(ecgs.map(\.symptomsStatus) == [HKElectrocardiogram.SymptomsStatus.none, .present])
        #expect(ecgs.first?.samplingFrequency?.doubleValue(for: .hertz()) == 512)
        #expect(ecgs.first?.endDate == ecgs.first?.startDate.addingTimeInterval(30))
        #expect(ecgs.first?.device?.model == "Watch6,1")
        var first: HKElectrocardiogram.VoltageMeasurement?
        for try await measurement in HKElectrocardiogramQueryDescriptor(ecgs[0]).results(for: store) {
            first = measurement
            break
        }
        let volts = try #require(first?.quantity(for: .appleWatchSimilarToLeadI))
        #expect(abs(volts.doubleValue(for: .voltUnit(with: .micro)) - -30.25) < 1e-9)
    }
}

// 50,000-case property loops: on a thread of their own, not the pool's.
@Suite("Per-beat times of day", .ownThread)
struct BeatTimeTests {
    @Test(
        "SERIES-2: times of day in 12- and 24-hour forms, with points or commas; anything else is not a time",
        arguments: [
            ("7:20:30.12 AM", 26_430, "12"), ("12:00:00.95 AM", 0, "95"), ("12:30:00 PM", 45_000, ""),
            ("7:20:30.12 p.m.", 69_630, "12"), ("01:20:37,80", 4_837, "80"), ("23:59:59", 86_399, ""),
        ] as [(String, Int, String)]
    )
    func readable(text: String, whole: Int, fraction: String) {
        let seconds = ExportObjects.secondsOfDay(text)
        #expect(seconds?.whole == whole)
        #expect(seconds?.fraction == fraction)
    }

    @Test(
        "SERIES-2: texts that are not a time of day give nothing",
        arguments: ["", "7:20", "25:00:00", "7:61:00", "7:20:30.1.2", "a:b:c", "7:20:30.x"]
    )
    func unreadable(text: String) {
        #expect(ExportObjects.secondsOfDay(text) == nil)
    }

    @Test(
        "SERIES-2: the bytes' fast reading answers as the general one whenever it answers, and it answers the plain forms"
    )
    func fastReading() {
        let alphabet = Array("0123456789:.,  ampAMP".utf8) + [UInt8(ascii: "1"), UInt8(ascii: ":"), 0xC2, 0xA0, 0xE2]
        // The 12-hour forms: a space, a no-break space or a narrow one, then the marker; and some the fast reading leaves.
        let markers = [
            " AM", " PM", " am", " pm", "\u{00A0}PM", "\u{202F}AM", "\u{202F}pm", " p.m.", "AM", " AMM", "  PM",
        ]
        var random = SystemRandomNumberGenerator()
        var answered = 0
        var disagreements: [String] = []
        for step in 0..<50_000 {
            let bytes: [UInt8]
            if step % 2 == 0 {
                // Near the plain form: one to three digits per field, maybe a fraction, maybe damaged.
                let limits = step % 8 == 0 ? [130, 130, 130] : [26, 62, 62]
                var text = limits.map { String(Int.random(in: 0..<$0, using: &random)) }.joined(separator: ":")
                if Bool.random(using: &random) {
                    // Up to 14 digits: past the general reading's 12 characters of seconds too.
                    text +=
                        "."
                        + String(
                            (0..<Int.random(in: 1...14, using: &random)).map { _ in
                                "0123456789".randomElement(using: &random)!
                            }
                        )
                }
                if step % 4 == 0 { text += markers.randomElement(using: &random)! }
                var plain = Array(text.utf8)
                if step % 10 == 0 {
                    plain[Int.random(in: plain.indices, using: &random)] = alphabet.randomElement(using: &random)!
                }
                bytes = plain
            } else {
                bytes = (0..<Int.random(in: 0..<14, using: &random)).map { _ in alphabet.randomElement(using: &random)!
                }
            }
            guard let fast = ExportObjects.plainSecondsOfDay(bytes[...]) else { continue }
            answered += 1
            let general = ExportObjects.secondsOfDay(String(decoding: bytes, as: UTF8.self))
            if general?.whole != fast.whole || general?.fraction != fast.fraction {
                disagreements.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(answered > 10_000, "the fast reading answered \(answered) of 50,000")
        let plain = ExportObjects.plainSecondsOfDay(Array("23:59:59.875".utf8)[...])
        #expect(plain?.whole == 86_399 && plain?.fraction == "875")
        let afternoon = ExportObjects.plainSecondsOfDay(Array("7:20:30.12\u{202F}PM".utf8)[...])
        #expect(afternoon?.whole == 69_630 && afternoon?.fraction == "12", "iOS 17's narrow no-break space")
        #expect(ExportObjects.plainSecondsOfDay(Array("12:00:01 AM".utf8)[...])?.whole == 1)
        #expect(
            ExportObjects.plainSecondsOfDay(Array("7:20:30 p.m.".utf8)[...]) == nil,
            "other markers go the general way"
        )
    }

    @Test("SERIES-2: a beat's time is the decimal as written: the exact reading equals the text's, digit for digit")
    func beatTimes() {
        var random = SystemRandomNumberGenerator()
        var disagreements: [String] = []
        for step in 0..<50_000 {
            let whole =
                step % 5 == 0
                ? Int.random(in: -50_000..<0, using: &random) : Int.random(in: 0..<200_000, using: &random)
            let fraction = String(
                (0..<Int.random(in: 0...13, using: &random)).map { _ in "0123456789".randomElement(using: &random)! }
            )
            let digits = fraction.isEmpty ? "0" : fraction
            let text =
                whole >= 0 ? Double("\(whole).\(digits)") ?? .nan : Double(whole) + (Double("0." + digits) ?? .nan)
            let exact = ExportObjects.beatTime(whole: whole, fraction: fraction)
            if exact.bitPattern != text.bitPattern { disagreements.append("\(whole).\(fraction)") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(ExportObjects.beatTime(whole: 1, fraction: "93") == 1.93)
        #expect(ExportObjects.beatTime(whole: 0, fraction: "") == 0)
    }
}

@Suite("ECG files as phones in other languages write them")
struct ElectrocardiogramFileTests {
    @Test(
        "ECG-1: voltages with decimal commas, a rate with a decimal comma and a word in another script, a bare first line"
    )
    func localizedForms() throws {
        let text = [
            "Name", "Geburtsdatum,01.01.1990", "Aufnahmedatum,2024-09-03 22:05:56 +0200",
            "Klassifizierung,Sinusrhythmus",
            "Symptome,", "Softwareversion,1.90", "Gerät,\"Watch7,2\"", "Messrate,511,562 Hertz", "", "",
            "Ableitung,Ableitung I", "Einheit,µV", "94,151", "-12,5", "7", "-3",
        ].joined(separator: "\r\n")
        guard case .electrocardiogram(let ecg) = ExportElectrocardiogram.parse(Array(text.utf8)) else {
            Issue.record("the file is read")
            return
        }
        let points = try #require(ecg.points)
        let microvolts = (0..<points.count).map { (points.double($0, field: 0) * 1e9).rounded() / 1_000 }
        #expect(microvolts == [94.151, -12.5, 7, -3])
        #expect(ecg.samplingFrequency?.doubleValue(for: .hertz()) == 511.562)
        #expect(ecg.classification == .unrecognized)
        #expect(ecg.symptomsStatus == HKElectrocardiogram.SymptomsStatus.none)
        #expect(ecg.device?.model == "Watch7,2")
        #expect(ExportElectrocardiogram.rate("512ヘルツ") == 512)
        #expect(ExportElectrocardiogram.rate("512赫兹") == 512)
    }

    @Test(
        "ECG-1: files that are not recordings are rejected with a reason, never a crash",
        arguments: [
            "", "Name,x\n",
            "Name,x\nDate of Birth,\nRecorded Date,2024-09-03 22:05:56 +0200\n\nLead,Lead I\nUnit,µV\n1\n",
            "Name,x\nDate of Birth,\nRecorded Date,nope\nClassification,\nSymptoms,\nSoftware Version,1\nDevice,x\nSample Rate,512 hertz\n\nLead,Lead I\nUnit,µV\n1\n",
            "Name,x\nDate of Birth,\nRecorded Date,2024-09-03 22:05:56 +0200\nClassification,\nSymptoms,\nSoftware Version,1\nDevice,x\nSample Rate,512 hertz\n\nLead,Lead I\nUnit,furlongs\n1\n",
            "Name,x\nDate of Birth,\nRecorded Date,2024-09-03 22:05:56 +0200\nClassification,\nSymptoms,\nSoftware Version,1\nDevice,x\nSample Rate,512 hertz\n\nLead,Lead I\nUnit,µV\n1\nabc\n",
        ]
    )
    func rejected(text: String) {
        guard case .rejected(let reason) = ExportElectrocardiogram.parse(Array(text.utf8)) else {
            Issue.record("expected a rejection")
            return
        }
        #expect(reason.contains("ECG-1"), "\(reason)")
    }
}

@Suite("Structured workouts as the watch writes them")
struct IntervalWorkoutImportTests {
    @Test(
        "OBJ-23: a structured run's intervals keep the workout's kilometre segments that overlap them, running before and past them"
    )
    func intervals() async throws {
        try await withImportStore { store in
            let file = fixtureFile("export-v17-intervals.xml")
            let summary = try await HealthExportImporter(store: store).importExport(at: file)
            #expect(summary.unknown.isEmpty, "\(summary.unknown)")
            #expect(summary.rejected.isEmpty, "\(summary.rejected)")
            let workout = try #require(try await samples(store, HKWorkoutType.workoutType()).first as? HKWorkout)
            #expect(workout.workoutActivities.count == 8)
            let fast = workout.workoutActivities[1]
            #expect(fast.endDate!.timeIntervalSince(fast.startDate) == 60)
            let segment = try #require(fast.workoutEvents.first)
            #expect(segment.dateInterval.start < fast.startDate && segment.dateInterval.end > fast.endDate!)
            #expect(fast.duration == 60, "its own duration, not the segment's")
            #expect(workout.workoutActivities.map(\.workoutEvents.count) == [4, 1, 1, 1, 1, 1, 2, 2])
            try await expectAuditPasses(store)
            try await expectImportAddsNothing(file, into: store)
        }
    }
}

@Suite("Hostile side files", .ownThread)
struct HostileSideFileTests {
    @Test(
        "GPX and ECG readers: 20,000 random and mutated files give points or a refusal, never a crash or a read past the bytes",
        arguments: testSeeds([3, 11])
    )
    func fuzz(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let gpx = Array(
            #"<gpx><trk><trkseg><trkpt lat="47.6" lon="-122.3"><ele>12.5</ele><time>2025-09-17T01:15:00Z</time><extensions><speed>1</speed><course>2</course><hAcc>3</hAcc><vAcc>4</vAcc></extensions></trkpt><trkpt lat='1' lon='2'/></trkseg></trk></gpx>"#
                .utf8
        )
        let ecg = Array(
            "Name,x\nDate of Birth,\nRecorded Date,2024-09-03 22:05:56 +0200\nClassification,Sinus Rhythm\nSymptoms,\nSoftware Version,2\nDevice,\"Watch6,1\"\nSample Rate,512 hertz\n\n\nLead,Lead I\nUnit,µV\n1,5\n-2\n3\n"
                .utf8
        )
        #expect(GPXTrack.locations(gpx) == nil, "the self-closing point has no time: the file is refused whole")
        for round in 0..<10_000 {
            for base in [gpx, ecg] {
                var bytes = base
                if round % 4 == 0 {
                    bytes = (0..<Int.random(in: 0...300, using: &random)).map { _ in
                        UInt8.random(in: 0...255, using: &random)
                    }
                } else {
                    for _ in 0..<Int.random(in: 1...6, using: &random) {
                        guard !bytes.isEmpty else { break }
                        let index = Int.random(in: 0..<bytes.count, using: &random)
                        switch Int.random(in: 0...2, using: &random) {
                        case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
                        case 1: bytes.remove(at: index)
                        default: bytes = Array(bytes[..<index])
                        }
                    }
                }
                if let points = GPXTrack.locations(bytes) {
                    #expect(points.allSatisfy { $0.timestamp.isFinite && $0.latitude.isFinite })
                }
                if case .electrocardiogram(let recording) = ExportElectrocardiogram.parse(bytes) {
                    #expect(recording.numberOfVoltageMeasurements >= 0)
                }
            }
        }
    }
}
