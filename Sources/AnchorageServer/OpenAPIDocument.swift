import Foundation

/// The node's OpenAPI 3.1 description (docs/openapi.yaml), as a node serves
/// it at `/openapi.json`: the paths of its own kind.
///
/// ```swift
/// let json = OpenAPIDocument.json(for: .multi)   // the paths a multi-store node serves
/// ```
enum OpenAPIDocument {
    /// The kinds of node, as `x-anchorage-nodes` names them.
    enum NodeKind: String, CaseIterable, Sendable {
        /// `anchorage serve --store`.
        case single
        /// `anchorage serve --stores`.
        case multi
        /// A fleet node.
        case fleet
    }

    /// The document for `kind`: the paths it serves, without the
    /// `x-anchorage-nodes` marks; keys sorted.
    static func json(for kind: NodeKind) -> [UInt8] {
        documents[kind]!
    }

    /// The paths `kind` serves, each with its methods (lowercased).
    static func operations(for kind: NodeKind) -> [String: Set<String>] {
        var found: [String: Set<String>] = [:]
        for (path, item) in paths(of: whole(), for: kind) {
            found[path] = Set(item.keys.filter { methods.contains($0) })
        }
        return found
    }

    /// The methods `path` (a request's path) takes on a node of `kind`,
    /// uppercased and sorted; `nil` when no described path matches it.
    static func methods(ofPath path: String, for kind: NodeKind) -> [String]? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (template, methods) in templates[kind]! where template.count == segments.count {
            let matches = zip(template, segments).allSatisfy { pattern, segment in
                pattern.hasPrefix("{") ? !segment.isEmpty : pattern == segment
            }
            if matches { return methods.map { $0.uppercased() }.sorted() }
        }
        return nil
    }

    /// Each kind's described paths, split into segments, with their methods.
    private static let templates: [NodeKind: [(segments: [Substring], methods: Set<String>)]] = {
        var templates: [NodeKind: [(segments: [Substring], methods: Set<String>)]] = [:]
        for kind in NodeKind.allCases {
            templates[kind] = operations(for: kind).map { path, methods in
                (Array(path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()), methods)
            }
        }
        return templates
    }()

    private static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]

    private static let documents: [NodeKind: [UInt8]] = {
        var documents: [NodeKind: [UInt8]] = [:]
        let parsed = whole()
        for kind in NodeKind.allCases {
            var document = parsed
            var kept: [String: Any] = [:]
            for (path, item) in paths(of: parsed, for: kind) {
                var item = item
                item["x-anchorage-nodes"] = nil
                kept[path] = item
            }
            document["paths"] = kept
            documents[kind] = Array(
                (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data("{}".utf8)
            )
        }
        return documents
    }()

    private static func paths(of document: [String: Any], for kind: NodeKind) -> [String: [String: Any]] {
        let all = document["paths"] as? [String: [String: Any]] ?? [:]
        return all.filter { _, item in (item["x-anchorage-nodes"] as? [String])?.contains(kind.rawValue) ?? false }
    }

    /// The generated document, parsed.
    private static func whole() -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(source.utf8))) as? [String: Any] ?? [:]
    }
}
