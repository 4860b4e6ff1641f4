import AnchorageModel
import Foundation

/// The payload of a source priority entry (kind 9004): the owner's order of
/// sources for one quantity type (ST-27). JSON, so auditors can read it.
struct SourcePriorityRecord: Codable, Sendable, Equatable {
    /// The type's kind code.
    var type: UInt32
    /// Bundle identifiers, highest priority first.
    var sources: [String]

    static let maximumSources = 1_000

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array(try encoder.encode(self))
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) -> SourcePriorityRecord? {
        guard bytes.count <= 1 << 20 else { return nil }
        return try? JSONDecoder().decode(SourcePriorityRecord.self, from: Data(bytes))
    }
}
