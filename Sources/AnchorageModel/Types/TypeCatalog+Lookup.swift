extension TypeCatalog {
    /// The type `table` lists for `identifier`.
    ///
    /// ```swift
    /// try TypeCatalog.type(.food, in: correlationTypes, rule: "OBJ-15", kind: "correlation")
    /// ```
    ///
    /// - Throws: ``HKError`` (`rule`) naming the identifier, cut to 120
    ///   characters, when the table does not list it.
    package static func type<Identifier: RawRepresentable<String> & Hashable, Type>(
        _ identifier: Identifier,
        in table: [Identifier: Type],
        rule: String,
        kind: String
    ) throws(HKError) -> Type {
        guard let known = table[identifier] else {
            throw .invalid(rule, "'\(identifier.rawValue.prefix(120))' is not a \(kind) type identifier")
        }
        return known
    }

    /// ``type(_:in:rule:kind:)`` for one of HealthKit's initializers, which
    /// stop the program on an identifier they do not know.
    package static func typeOrStop<Identifier: RawRepresentable<String> & Hashable, Type>(
        _ identifier: Identifier,
        in table: [Identifier: Type],
        rule: String,
        kind: String
    ) -> Type {
        checkedOrStop { () throws(HKError) in try type(identifier, in: table, rule: rule, kind: kind) }
    }
}

extension HKObjectType {
    /// A copy of a catalogued type, for the initializers that look one up.
    package convenience init(copying known: HKObjectType) {
        self.init(identifier: known.identifier, kindCode: known.kindCode)
    }
}
