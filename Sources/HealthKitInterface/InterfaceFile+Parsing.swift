import Foundation

/// A line of an interface file that does not follow the format.
public struct InterfaceFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public var description: String { "\(file).hkinterface:\(line): \(message)" }
}

extension InterfaceFile {
    /// Parses the text of `NAME.hkinterface` (format: the README beside it).
    ///
    /// ```swift
    /// let file = try InterfaceFile(parsing: "type HKMetricPrefix: enum Int\n    case kilo\n", name: "Units")
    /// ```
    public init(parsing text: String, name: String) throws(InterfaceFormatError) {
        var types: [InterfaceType] = []
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = String(raw)
            let trimmed = line.trimmingWhitespace
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            func failure(_ message: String) -> InterfaceFormatError {
                InterfaceFormatError(file: name, line: number, message: message)
            }
            if !line.hasPrefix(" ") && !line.hasPrefix("\t") {
                types.append(try Self.header(trimmed, line: number, failure: failure))
                continue
            }
            guard !types.isEmpty else { throw failure("a member before any `type` line") }
            let (declaration, status) = try Self.splitStatus(trimmed, failure: failure)
            guard !declaration.isEmpty else { throw failure("a status mark without a declaration") }
            types[types.count - 1].members.append(
                InterfaceMember(declaration: declaration, status: status, line: number)
            )
        }
        // A nested type of a generic type has its outer type's parameters.
        for index in types.indices where types[index].genericParameters.isEmpty {
            var outer = types[index].name
            while let dot = outer.lastIndex(of: ".") {
                outer = String(outer[..<dot])
                if let parent = types.first(where: { $0.name == outer && !$0.genericParameters.isEmpty }) {
                    types[index].genericParameters = parent.genericParameters
                    break
                }
            }
        }
        self.init(name: name, types: types)
    }

    /// `type NAME[<G: C>]: KIND [RAW] [INHERITS…] [!mark]` or `global`.
    static func header(
        _ text: String,
        line: Int,
        failure: (String) -> InterfaceFormatError
    ) throws(InterfaceFormatError) -> InterfaceType {
        let (body, status) = try splitStatus(text, failure: failure)
        if body == "global" { return InterfaceType(name: "", kind: .global, status: status, line: line) }
        guard body.hasPrefix("type ") else {
            throw failure("expected `type NAME: KIND …`, `global` or an indented member, found `\(body)`")
        }
        let rest = body.dropFirst(5).trimmingWhitespace
        // The name runs to the first ':' outside angle brackets.
        var depth = 0
        var colon: String.Index?
        for index in rest.indices {
            switch rest[index] {
            case "<": depth += 1
            case ">": depth -= 1
            case ":" where depth == 0:
                colon = index
            default: break
            }
            if colon != nil { break }
        }
        guard let colon else { throw failure("a `type` line needs `: KIND`") }
        var name = String(rest[..<colon]).trimmingWhitespace
        var generics: [GenericParameter] = []
        if let open = name.firstIndex(of: "<"), let close = name.lastIndex(of: ">") {
            let clause = String(name[name.index(after: open)..<close])
            for part in splitTopLevel(clause, separator: ",") {
                let pieces = part.split(separator: ":", maxSplits: 1).map { String($0).trimmingWhitespace }
                guard pieces.count == 2 else { throw failure("a generic parameter needs a constraint: `\(part)`") }
                generics.append(GenericParameter(name: pieces[0], constraint: pieces[1]))
            }
            name = String(name[..<open]) + String(name[name.index(after: close)...])
        }
        let words = splitTopLevel(String(rest[rest.index(after: colon)...]), separator: ",")
            .flatMap { (part: String) -> [String] in
                // The first part is `KIND [RAW|SUPERCLASS]`.
                part.split(separator: " ", maxSplits: 1).map { String($0).trimmingWhitespace }
            }
        guard let kindWord = words.first, let kind = InterfaceType.Kind(rawValue: kindWord), kind != .global else {
            throw failure("unknown kind in `\(body)`; expected class, struct, enum or protocol")
        }
        var inherits = Array(words.dropFirst()).filter { !$0.isEmpty }
        var rawType: String?
        if kind == .enum, let first = inherits.first, ["Int", "UInt", "String", "Int64", "UInt64"].contains(first) {
            rawType = first
            inherits.removeFirst()
        }
        return InterfaceType(
            name: name,
            genericParameters: generics,
            kind: kind,
            rawType: rawType,
            inherits: inherits,
            status: status,
            line: line
        )
    }

    /// Splits `DECLARATION  !differs: HOW => REPLACEMENT` or `… !linux: WHY`.
    static func splitStatus(
        _ text: String,
        failure: (String) -> InterfaceFormatError
    ) throws(InterfaceFormatError) -> (String, MemberStatus) {
        if let range = text.range(of: "!missing:") {
            let reason = String(text[range.upperBound...]).trimmingWhitespace
            guard !reason.isEmpty else { throw failure("`!missing:` needs a reason") }
            return (String(text[..<range.lowerBound]).trimmingWhitespace, .missing(reason: reason))
        }
        if let range = text.range(of: "!model:") {
            let reason = String(text[range.upperBound...]).trimmingWhitespace
            guard !reason.isEmpty else { throw failure("`!model:` needs a reason") }
            return (String(text[..<range.lowerBound]).trimmingWhitespace, .model(reason: reason))
        }
        if let range = text.range(of: "!linux:") {
            let reason = String(text[range.upperBound...]).trimmingWhitespace
            guard !reason.isEmpty else { throw failure("`!linux:` needs a reason") }
            return (String(text[..<range.lowerBound]).trimmingWhitespace, .linux(reason: reason))
        }
        if let range = text.range(of: "!differs:") {
            let rest = String(text[range.upperBound...])
            let declaration = String(text[..<range.lowerBound]).trimmingWhitespace
            if let arrow = rest.range(of: "=>") {
                let how = String(rest[..<arrow.lowerBound]).trimmingWhitespace
                let replacement = String(rest[arrow.upperBound...]).trimmingWhitespace
                guard !how.isEmpty, !replacement.isEmpty else {
                    throw failure("`!differs:` needs how it differs, and a declaration after `=>`")
                }
                return (declaration, .differs(how: how, replacement: replacement))
            }
            let how = rest.trimmingWhitespace
            guard !how.isEmpty else { throw failure("`!differs:` needs how it differs") }
            return (declaration, .differs(how: how, replacement: nil))
        }
        if text.contains("!") && text.range(of: #"![a-z]+:"#, options: .regularExpression) != nil {
            throw failure("unknown status mark; use `!differs:`, `!linux:`, `!model:` or `!missing:`")
        }
        return (text, .supported)
    }
}

extension StringProtocol {
    var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" || first == "\r" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" || last == "\r" { scalars.removeLast() }
        return String(scalars)
    }
}

/// Splits `text` at `separator` where no bracket of any kind is open.
func splitTopLevel(_ text: String, separator: Character) -> [String] {
    var parts: [String] = []
    var current = ""
    var depth = 0
    var previous: Character = " "
    for character in text {
        switch character {
        case "(", "[", "<", "{": depth += 1
        case ")", "]", "}": depth -= 1
        case ">" where previous != "-": depth -= 1
        default: break
        }
        if character == separator && depth == 0 {
            parts.append(current.trimmingWhitespace)
            current = ""
        } else {
            current.append(character)
        }
        previous = character
    }
    let last = current.trimmingWhitespace
    if !last.isEmpty { parts.append(last) }
    return parts
}
