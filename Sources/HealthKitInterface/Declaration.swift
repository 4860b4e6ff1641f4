import Foundation

/// One Swift declaration of the subset HealthKit's interface uses, taken
/// apart so that a reference to it can be written and its type spelled.
///
/// ```swift
/// let declaration = try Declaration(parsing: "class func gramUnit(with prefix: HKMetricPrefix) -> Self")
/// declaration.fullName  // "gramUnit(with:)"
/// ```
public struct Declaration: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// `var`/`let`; `settable` for `{ get set }`.
        case property(settable: Bool)
        case function
        /// `init`, `init?` (`failable`).
        case initializer(failable: Bool)
        /// `case a, b`: the names.
        case enumCase([String])
        case associatedType
        /// `typealias NAME = TYPE`: the type in `resultType`.
        case typeAlias
    }

    public struct Parameter: Sendable, Hashable {
        /// The argument label; `nil` for `_`.
        public var label: String?
        public var type: String
        public var hasDefault: Bool
    }

    public var kind: Kind
    /// The base name without backticks (`is` for `` `is`(compatibleWith:) ``).
    public var name: String
    /// `class`/`static`: a member of the type, not of an instance.
    public var isTypeMember: Bool
    public var isMutating: Bool
    /// Declared `@MainActor`: its function type is isolated to the main actor.
    public var isMainActor: Bool = false
    public var genericClause: String?
    public var whereClause: String?
    public var parameters: [Parameter]
    public var isAsync: Bool
    /// `throws`, `rethrows`, or a typed `throws(E)` as written.
    public var throwsClause: String?
    /// A function's result (`nil` for `Void`), a property's or alias's type.
    public var resultType: String?

    /// The name as a reference spells it: `gramUnit(with:)`, `init(from:)`,
    /// `count`, `` `is`(compatibleWith:) ``.
    public var fullName: String {
        let base = Self.keywords.contains(name) ? "`\(name)`" : name
        switch kind {
        case .function, .initializer:
            // A reference to a function without parameters is its bare name
            // (`HKUnit.gram`, `HKHealthStore.init`): `gram()` would call it.
            guard !parameters.isEmpty else { return base }
            return base + "(" + parameters.map { ($0.label ?? "_") + ":" }.joined() + ")"
        default:
            return base
        }
    }

    static let keywords: Set<String> = [
        "is", "default", "as", "in", "repeat", "self", "Type", "where", "case", "protocol", "class", "struct", "enum",
        "func", "var", "let", "static", "true", "false", "nil", "for", "if", "else", "switch", "while", "do", "return",
        "throw", "try", "catch", "import", "operator", "extension", "internal", "public", "private", "open",
        "fileprivate", "inout", "subscript", "deinit", "continue", "break", "defer", "guard", "fallthrough",
        "associatedtype", "typealias", "super", "Self", "Any",
    ]
}

/// A declaration this generator cannot take apart.
public struct DeclarationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var declaration: String
    public var message: String
    public var description: String { "\(message): `\(declaration)`" }
}

extension Declaration {
    static let modifiers: Set<String> = [
        "class", "static", "convenience", "required", "final", "override", "open", "public", "nonisolated",
        "mutating", "optional", "dynamic", "lazy", "weak", "unowned", "indirect",
    ]

    /// Parses one declaration line.
    public init(parsing text: String) throws(DeclarationError) {
        func failure(_ message: String) -> DeclarationError { DeclarationError(declaration: text, message: message) }
        var scanner = Scanner(text)
        var isTypeMember = false
        var isMutating = false
        var isMainActor = false
        // Attributes and modifiers.
        while true {
            scanner.skipSpaces()
            if scanner.peek == "@" {
                if scanner.word(allowing: ["@"]) == "@MainActor" { isMainActor = true }
                if scanner.peek == "(" { _ = scanner.balanced() }
                continue
            }
            let save = scanner.position
            let word = scanner.word()
            if Self.modifiers.contains(word) {
                if word == "class" || word == "static" { isTypeMember = true }
                if word == "mutating" { isMutating = true }
                // `nonisolated(unsafe)`, `unowned(safe)`.
                if scanner.peek == "(" { _ = scanner.balanced() }
                continue
            }
            scanner.position = save
            break
        }
        scanner.skipSpaces()
        let keyword = scanner.word(allowing: ["?", "!"])
        var declaration = Declaration(
            kind: .function,
            name: "",
            isTypeMember: isTypeMember,
            isMutating: isMutating,
            genericClause: nil,
            whereClause: nil,
            parameters: [],
            isAsync: false,
            throwsClause: nil,
            resultType: nil
        )
        switch keyword {
        case "var", "let":
            scanner.skipSpaces()
            declaration.name = scanner.identifier()
            scanner.skipSpaces()
            guard scanner.take(":") else { throw failure("a property needs `: TYPE`") }
            let rest = scanner.rest.trimmingWhitespace
            var type = rest
            var settable = keyword == "var"
            if let brace = Self.accessorBlockStart(rest) {
                type = String(rest[..<brace]).trimmingWhitespace
                let accessors = rest[brace...]
                settable = accessors.contains("set")
            }
            guard !type.isEmpty else { throw failure("a property needs a type") }
            declaration.kind = .property(settable: settable)
            declaration.resultType = type
        case "case":
            let names = splitTopLevel(scanner.rest, separator: ",").map {
                String($0.split(separator: "=").first ?? "").trimmingWhitespace
            }
            guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty }) else { throw failure("a case needs a name") }
            declaration.kind = .enumCase(names.map { $0.replacingBackticks })
            declaration.name = names[0].replacingBackticks
        case "associatedtype":
            scanner.skipSpaces()
            declaration.kind = .associatedType
            declaration.name = scanner.identifier()
        case "typealias":
            scanner.skipSpaces()
            declaration.name = scanner.identifier()
            scanner.skipSpaces()
            guard scanner.take("=") else { throw failure("a typealias needs `= TYPE`") }
            declaration.kind = .typeAlias
            declaration.resultType = scanner.rest.trimmingWhitespace
        case "init", "init?", "init!":
            declaration.kind = .initializer(failable: keyword != "init")
            declaration.name = "init"
            try Self.parseSignature(&scanner, into: &declaration, failure: failure)
        case "func":
            scanner.skipSpaces()
            declaration.name = scanner.identifier()
            guard !declaration.name.isEmpty else { throw failure("a function needs a name") }
            try Self.parseSignature(&scanner, into: &declaration, failure: failure)
        default:
            throw failure("unsupported declaration `\(keyword)`")
        }
        declaration.isMainActor = isMainActor
        self = declaration
    }

    /// Where `{ get }` starts in `TYPE { get }`, skipping braces inside
    /// the type (there are none in Swift types, but be safe with closures).
    static func accessorBlockStart(_ text: String) -> String.Index? {
        guard let brace = text.lastIndex(of: "{") else { return nil }
        let tail = text[brace...]
        return tail.contains("get") ? brace : nil
    }

    /// `[<generics>](params) [async] [throws] [-> R] [where …]`.
    static func parseSignature(
        _ scanner: inout Scanner,
        into declaration: inout Declaration,
        failure: (String) -> DeclarationError
    ) throws(DeclarationError) {
        scanner.skipSpaces()
        if scanner.peek == "<" { declaration.genericClause = scanner.balanced() }
        scanner.skipSpaces()
        guard scanner.peek == "(" else { throw failure("expected a parameter list") }
        let list = scanner.balanced()
        let inner = String(list.dropFirst().dropLast())
        declaration.parameters = try splitTopLevel(inner, separator: ",").map {
            (part: String) throws(DeclarationError) in
            try Self.parameter(part, failure: failure)
        }
        while true {
            scanner.skipSpaces()
            let save = scanner.position
            let word = scanner.word()
            if word == "async" {
                declaration.isAsync = true
            } else if word == "throws" || word == "rethrows" {
                var clause = word
                if scanner.peek == "(" { clause += scanner.balanced() }
                declaration.throwsClause = clause
            } else {
                scanner.position = save
                break
            }
        }
        scanner.skipSpaces()
        var rest = scanner.rest.trimmingWhitespace
        if let whereRange = rest.range(of: " where ") ?? (rest.hasPrefix("where ") ? rest.range(of: "where ") : nil) {
            declaration.whereClause = String(rest[whereRange.upperBound...]).trimmingWhitespace
            rest = String(rest[..<whereRange.lowerBound]).trimmingWhitespace
        }
        if rest.hasPrefix("->") {
            let result = String(rest.dropFirst(2)).trimmingWhitespace
            declaration.resultType = result == "Void" || result == "()" ? nil : result
        } else if !rest.isEmpty {
            throw failure("unexpected `\(rest)` after the parameters")
        }
    }

    /// `label name: TYPE = default`, `_ name: TYPE`, `name: TYPE`.
    static func parameter(_ text: String, failure: (String) -> DeclarationError) throws(DeclarationError) -> Parameter {
        let pieces = splitTopLevel(text, separator: ":")
        guard pieces.count >= 2 else { throw failure("a parameter needs `name: TYPE` in `\(text)`") }
        let names = pieces[0].split(separator: " ").map { String($0).replacingBackticks }
        var type = pieces[1...].joined(separator: ":").trimmingWhitespace
        var hasDefault = false
        let defaultParts = splitTopLevel(type, separator: "=")
        if defaultParts.count > 1 {
            hasDefault = true
            type = defaultParts[0]
        }
        guard let first = names.first, !type.isEmpty else { throw failure("a parameter needs a name and a type") }
        let label: String? = first == "_" ? nil : first
        return Parameter(label: label, type: type, hasDefault: hasDefault)
    }
}

extension String {
    var replacingBackticks: String { replacingOccurrences(of: "`", with: "") }
}

/// A cursor over a declaration's characters.
struct Scanner {
    let characters: [Character]
    var position = 0

    init(_ text: String) { characters = Array(text) }

    var peek: Character? { position < characters.count ? characters[position] : nil }
    var rest: String { String(characters[min(position, characters.count)...]) }

    mutating func skipSpaces() {
        while let character = peek, character == " " || character == "\t" { position += 1 }
    }

    mutating func take(_ character: Character) -> Bool {
        guard peek == character else { return false }
        position += 1
        return true
    }

    /// Letters, digits, `_` and `extra`.
    mutating func word(allowing extra: Set<Character> = []) -> String {
        var word = ""
        while let character = peek,
            character.isLetter || character.isNumber || character == "_" || extra.contains(character)
        {
            word.append(character)
            position += 1
        }
        return word
    }

    /// An identifier, backticks allowed (dropped).
    mutating func identifier() -> String {
        if take("`") {
            let name = word()
            _ = take("`")
            return name
        }
        return word()
    }

    /// A bracketed run starting at the current `(` or `<`, brackets included.
    mutating func balanced() -> String {
        guard let open = peek else { return "" }
        let close: Character = open == "(" ? ")" : open == "<" ? ">" : open == "[" ? "]" : "}"
        var depth = 0
        var text = ""
        var previous: Character = " "
        while let character = peek {
            text.append(character)
            position += 1
            if character == open {
                depth += 1
            } else if character == close && !(close == ">" && previous == "-") {
                depth -= 1
                if depth == 0 { break }
            }
            previous = character
        }
        return text
    }
}
