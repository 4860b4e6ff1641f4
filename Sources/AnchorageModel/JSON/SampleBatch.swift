public import Foundation

/// Samples to save together, as `POST /v1/samples` and `anchorage save`
/// read them: a JSON array of objects in the form of docs/json-format.md,
/// or `{"samples": [...]}`.
///
/// ```swift
/// let batch = try SampleBatch(json: data)
/// try await store.save(batch.objects)        // all or nothing (OBJ-31)
/// ```
public struct SampleBatch: Decodable, Sendable {
    /// The samples, in the order given.
    public let objects: [HKObject]

    /// A batch with nothing in it, or with something that is not a sample.
    public struct Empty: Error, CustomStringConvertible {
        public let description: String
    }

    /// Decodes and checks a batch.
    ///
    /// - Throws: `DecodingError` for broken JSON, ``JSONNumberOutOfRange``
    ///   for a number that does not fit its field, ``HKError`` for an object
    ///   that breaks a rule, ``Empty`` for an empty batch or a non-sample.
    public init(json data: Data) throws {
        if let objects = data.withUnsafeBytes({ Self.fast($0) }) {
            self.objects = objects
        } else {
            self = try Self.reference(json: data)
        }
        guard !objects.isEmpty else { throw Empty(description: "there are no samples to save") }
        guard objects.allSatisfy({ $0 is HKSample }) else { throw Empty(description: "only samples can be saved") }
    }

    /// The batch as Foundation's `JSONDecoder` reads it: every form, and the
    /// errors that say what is wrong. ``init(json:)`` takes it when the fast
    /// reader declines.
    package static func reference(json data: Data) throws -> SampleBatch {
        try JSONNumbers.decode(SampleBatch.self, from: data)
    }

    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var objects: [HKObject] = []
            while !array.isAtEnd { objects.append(try array.decode(HealthObject.self).object) }
            self.objects = objects
        } else {
            enum Keys: String, CodingKey { case samples }
            objects = try decoder.container(keyedBy: Keys.self).decode([HealthObject].self, forKey: .samples)
                .map(\.object)
        }
    }
}
