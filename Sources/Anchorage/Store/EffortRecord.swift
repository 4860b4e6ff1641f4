import AnchorageModel
import Foundation

/// The payload of an effort entry: a workout effort score sample related
/// to a workout (and one of its activities), or no longer related
/// (`HKHealthStore.relateWorkoutEffortSample` / `unrelateWorkoutEffortSample`).
///
/// Layout: version (1) ‖ operation (1: relate, 2: unrelate) ‖ workout
/// uuid (16) ‖ sample uuid (16) ‖ activity flag (1) ‖ activity uuid (16,
/// when the flag is 1).
///
/// Of the entries about one (workout, sample) pair, the latest by origin
/// time then dot decides, on every peer.
struct EffortRecord: Hashable, Sendable {
    enum Operation: UInt8 {
        case relate = 1
        case unrelate = 2
    }

    var operation: Operation
    var workout: UUID
    var sample: UUID
    /// The workout activity the sample scores; `nil` for the whole workout
    /// (and always for an unrelate, which ends the pair's relation).
    var activity: UUID?

    static let version: UInt8 = 1

    var bytes: [UInt8] {
        var bytes: [UInt8] = [Self.version, operation.rawValue]
        bytes += workout.indexBytes
        bytes += sample.indexBytes
        if let activity {
            bytes.append(1)
            bytes += activity.indexBytes
        } else {
            bytes.append(0)
        }
        return bytes
    }

    init(operation: Operation, workout: UUID, sample: UUID, activity: UUID?) {
        self.operation = operation
        self.workout = workout
        self.sample = sample
        self.activity = activity
    }

    /// Reads a payload; `nil` for bytes this version did not write.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 35 || bytes.count == 51, bytes[0] == Self.version,
            let operation = Operation(rawValue: bytes[1]),
            let workout = UUID(indexBytes: UnsafeRawBufferPointer(rebasing: bytes[2..<18])),
            let sample = UUID(indexBytes: UnsafeRawBufferPointer(rebasing: bytes[18..<34]))
        else { return nil }
        switch (bytes[34], bytes.count) {
        case (0, 35):
            activity = nil
        case (1, 51):
            guard let activity = UUID(indexBytes: UnsafeRawBufferPointer(rebasing: bytes[35..<51])) else { return nil }
            self.activity = activity
        default:
            return nil
        }
        self.operation = operation
        self.workout = workout
        self.sample = sample
    }

    /// The index row's value after the deciding entry's position: whether
    /// the pair is related ‖ the activity (16 bytes, or none).
    var state: [UInt8] {
        guard operation == .relate else { return [0] }
        return [1] + (activity?.indexBytes ?? [])
    }
}
