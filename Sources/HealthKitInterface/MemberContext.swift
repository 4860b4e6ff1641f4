/// Writes the check for one member of one type.
struct MemberContext {
    /// The type as code in the check's context spells it.
    var owner: String
    var type: InterfaceType
    /// A protocol's associated types, spelled `Self_.NAME` in checks.
    var associatedTypes: Set<String>
    /// Another member of the type has the same full name.
    var overloaded: Bool

    var isProtocol: Bool { type.kind == .protocol }
    var isGlobal: Bool { type.kind == .global }
    var subject: String { isProtocol ? "Self_" : owner }

    /// `Self` and associated types in a declared type, as the check spells them.
    func resolve(_ text: String) -> String {
        var result = ""
        var word = ""
        var previous: Character = " "
        func flush() {
            if word == "Self" {
                result += subject
            } else if isProtocol && associatedTypes.contains(word) && previous != "." {
                result += "Self_." + word
            } else {
                result += word
            }
            word = ""
        }
        for character in text {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else {
                flush()
                result.append(character)
                previous = character
            }
        }
        flush()
        return result
    }

    /// `(P1, P2) async throws -> R`.
    func functionType(_ declaration: Declaration, result: String?) -> String {
        let parameters = declaration.parameters.map { resolve($0.type) }.joined(separator: ", ")
        var text = (declaration.isMainActor ? "@MainActor " : "") + "(\(parameters))"
        if declaration.isAsync { text += " async" }
        if let clause = declaration.throwsClause { text += " " + resolve(clause) }
        text += " -> " + (result.map(resolve) ?? "Void")
        return text
    }

    /// The reference to the member: `HKUnit.gramUnit(with:)`, `\HKSample.startDate`.
    func reference(_ declaration: Declaration) -> String {
        isGlobal ? declaration.fullName : "\(subject).\(declaration.fullName)"
    }

    func check(_ declaration: Declaration) throws(DeclarationError) -> [String] {
        switch declaration.kind {
        case .enumCase(let names):
            return names.map { written in
                // A case with associated values is checked as the function that makes it.
                let name = String(written.prefix { $0 != "(" })
                let escaped = Declaration.keywords.contains(name) ? "`\(name)`" : name
                guard name.count < written.count else { return "let _: \(subject) = \(subject).\(escaped)" }
                let payload = resolve(String(written.dropFirst(name.count)))
                return "let _: \(payload) -> \(subject) = \(subject).\(escaped)"
            }
        case .associatedType:
            return ["_ = \(subject).\(declaration.name).self"]
        case .typeAlias:
            let target = resolve(declaration.resultType ?? "Void")
            return ["same(\(isGlobal ? "" : subject + ".")\(declaration.name).self, (\(target)).self)"]
        case .property(let settable):
            let value = resolve(declaration.resultType ?? "Void")
            if isGlobal || declaration.isTypeMember {
                return ["same(exactType(\(reference(declaration))), (\(value)).self)"]
            }
            let keyPath: String
            if !settable {
                keyPath = "KeyPath"
            } else if type.kind == .class || checkedKind == .class {
                keyPath = "ReferenceWritableKeyPath"
            } else {
                keyPath = "WritableKeyPath"
            }
            let name = Declaration.keywords.contains(declaration.name) ? "`\(declaration.name)`" : declaration.name
            return ["let _: \(keyPath)<\(subject), \(value)> = \\\(subject).\(name)"]
        case .initializer(let failable):
            let result = subject + (failable ? "?" : "")
            let function = functionType(declaration, result: result)
            return [compare(reference: "\(subject).\(declaration.fullName)", type: function)]
        case .function:
            // A generic function has no one type to compare with, and a
            // mutating method cannot be referenced unapplied: each is checked
            // by a call, in a closure that never runs. Such a call cannot
            // tell overloads apart, so an overload gets no check at all and
            // the renderer refuses it.
            if declaration.genericClause != nil || declaration.isMutating {
                guard !overloaded else { return [] }
                return ["_ = { () async throws -> Void in"] + call(declaration).map { "    " + $0 } + ["}"]
            }
            var function = functionType(declaration, result: declaration.resultType)
            if !isGlobal && !declaration.isTypeMember {
                function = "(\(declaration.isMutating ? "inout " : "")\(subject)) -> " + function
            }
            // A main-actor function's reference is also `@Sendable`; compare
            // it by context, which allows that.
            if declaration.isMainActor {
                return ["let _: \(function) = \(reference(declaration))"]
            }
            return [compare(reference: reference(declaration), type: function)]
        }
    }

    /// The kind the checks assume: a differing header's replacement kind.
    var checkedKind: InterfaceType.Kind {
        if case .differs(_, let replacement?) = type.status,
            let word = replacement.split(separator: " ").first,
            let kind = InterfaceType.Kind(rawValue: String(word))
        {
            return kind
        }
        return type.kind
    }

    /// An exact comparison, or a contextual one for overloads.
    func compare(reference: String, type: String) -> String {
        overloaded ? "let _: \(type) = \(reference)" : "same(exactType(\(reference)), (\(type)).self)"
    }

    /// Calls that leave out defaulted arguments, for the closure that never
    /// runs. Generic and mutating functions are called by their own check.
    func defaultArgumentCalls(_ declaration: Declaration) -> [String] {
        guard declaration.parameters.contains(where: \.hasDefault), declaration.genericClause == nil,
            !declaration.isMutating, !overloaded
        else { return [] }
        switch declaration.kind {
        case .function, .initializer: return call(declaration)
        default: return []
        }
    }

    /// A call of a function or initializer that passes `placeholder()` for
    /// every argument without a default, its result annotated with the
    /// declared type; a mutating method is called on a variable.
    func call(_ declaration: Declaration) -> [String] {
        let arguments = declaration.parameters.filter { !$0.hasDefault }.map { parameter in
            (parameter.label.map { "\($0): " } ?? "") + "placeholder()"
        }.joined(separator: ", ")
        var effects = ""
        if declaration.throwsClause != nil { effects += "try " }
        if declaration.isAsync { effects += "await " }
        if case .initializer(let failable) = declaration.kind {
            return ["let _: \(subject)\(failable ? "?" : "") = \(effects)\(subject)(\(arguments))"]
        }
        let callee: String
        if isGlobal {
            callee = declaration.name
        } else if declaration.isTypeMember {
            callee = "\(subject).\(declaration.name)"
        } else if declaration.isMutating {
            callee = "mutable.\(declaration.name)"
        } else {
            callee = "(placeholder() as \(subject)).\(declaration.name)"
        }
        let result = declaration.resultType.map { ": \(resolve($0))" } ?? ""
        let call =
            result.isEmpty ? "\(effects)\(callee)(\(arguments))" : "let _\(result) = \(effects)\(callee)(\(arguments))"
        guard declaration.isMutating else { return [call] }
        // Its exact result type is what the annotation checks.
        return ["var mutable: \(subject) = placeholder()", call]
    }
}
