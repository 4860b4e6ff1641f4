import Foundation

extension HKUnit {
    /// Parses a unit string, stopping the program if it is not one —
    /// HealthKit's behaviour (UNIT-4). For strings from outside the program
    /// use ``parse(_:)``, which throws.
    ///
    /// ```swift
    /// let unit = HKUnit(from: "kg/m^2")
    /// ```
    public init(from string: String) {
        do {
            self = try Self.parse(string)
        } catch {
            programmerError(error)
        }
    }

    /// Parses a unit string (grammar of UNIT-1), throwing a typed error that
    /// says what is wrong.
    ///
    /// ```swift
    /// let unit = try HKUnit.parse("mmol<180.15588000005408>/L")
    /// ```
    ///
    /// - Throws: ``HKError`` with code ``HKError/Code/errorInvalidArgument``
    ///   and rule `UNIT-1` for anything the grammar rejects: an unknown token,
    ///   a second `/`, whitespace, a bare `mol`, an exponent out of range…
    public static func parse(_ string: String) throws(HKError) -> HKUnit {
        if let cached = UnitCache.shared.unit(for: string) { return cached }
        var parser = UnitParser(string)
        let unit = try parser.parseUnit()
        UnitCache.shared.store(unit, for: string)
        return unit
    }
}

/// A recursive-descent parser for unit strings (UNIT-1, UNIT-2).
package struct UnitParser {
    private let source: String
    private let scalars: [Unicode.Scalar]
    private var position = 0

    package init(_ source: String) {
        self.source = source
        self.scalars = Array(source.unicodeScalars)
    }

    package mutating func parseUnit() throws(HKError) -> HKUnit {
        guard !scalars.isEmpty else { throw fail("the unit string is empty") }
        guard scalars.count <= 256 else { throw fail("the unit string is longer than 256 characters") }
        var atoms = try parseProduct(depth: 0)
        if peek() == "/" {
            position += 1
            let denominator = try parseProduct(depth: 0)
            atoms += denominator.map { atom in
                var inverted = atom
                inverted.exponent = -atom.exponent
                return inverted
            }
            if peek() == "/" { throw fail("a unit may have only one '/'", at: position) }
        }
        guard position == scalars.count else {
            throw fail("unexpected '\(scalars[position])'", at: position)
        }
        let unit = HKUnit(atoms: atoms)
        if let wild = unit.atoms.first(where: { abs($0.exponent) > HKUnit.maximumExponent }) {
            throw fail("the exponent of \(wild.written(exponent: 1)) is beyond ±\(HKUnit.maximumExponent)")
        }
        return unit
    }

    /// product := factor { mulop factor }
    private mutating func parseProduct(depth: Int) throws(HKError) -> [UnitAtom] {
        var atoms = try parseFactor(depth: depth)
        while let next = peek(), next == "." || next == "*" || next == "\u{B7}" {
            position += 1
            atoms += try parseFactor(depth: depth)
        }
        return atoms
    }

    /// factor := "(" product ")" | atom [ "^" int ]
    private mutating func parseFactor(depth: Int) throws(HKError) -> [UnitAtom] {
        guard let next = peek() else { throw fail("a unit is missing at the end") }
        if next == "(" {
            guard depth < 8 else { throw fail("parentheses are nested too deeply", at: position) }
            position += 1
            let inner = try parseProduct(depth: depth + 1)
            guard peek() == ")" else { throw fail("a ')' is missing", at: position) }
            position += 1
            return inner
        }
        let start = position
        let token = try readToken()
        var atom = try resolve(token, at: start)
        if peek() == "^" {
            position += 1
            atom.exponent = try readExponent()
        }
        return [atom]
    }

    /// Reads an atom's text: up to an operator or parenthesis; the molar
    /// mass inside `<…>` may contain dots.
    private mutating func readToken() throws(HKError) -> String {
        let start = position
        var text = String.UnicodeScalarView()
        while let scalar = peek() {
            if scalar == "<" {
                while let inner = peek(), inner != ">" {
                    text.append(inner)
                    position += 1
                }
                guard peek() == ">" else { throw fail("a '>' is missing after the molar mass", at: start) }
            } else if "./*·^()".unicodeScalars.contains(scalar) {
                break
            }
            if scalar.properties.isWhitespace { throw fail("unit strings contain no spaces", at: position) }
            text.append(peek()!)
            position += 1
        }
        guard !text.isEmpty else { throw fail("a unit is missing", at: start) }
        return String(text)
    }

    /// int := [ "-" ] digit { digit }, within ±maximumExponent.
    private mutating func readExponent() throws(HKError) -> Int {
        let start = position
        var negative = false
        if peek() == "-" {
            negative = true
            position += 1
        }
        var digits = ""
        while let scalar = peek(), ("0"..."9").contains(scalar), digits.count < 4 {
            digits.unicodeScalars.append(scalar)
            position += 1
        }
        guard let magnitude = Int(digits), magnitude <= HKUnit.maximumExponent else {
            throw fail(
                "an exponent is an integer from -\(HKUnit.maximumExponent) to \(HKUnit.maximumExponent)",
                at: start
            )
        }
        return negative ? -magnitude : magnitude
    }

    /// Resolves a token: the non-SI table first, then prefix + SI unit with
    /// the longest prefix (UNIT-2), and `mol<M>` with an optional prefix.
    private func resolve(_ token: String, at start: Int) throws(HKError) -> UnitAtom {
        if let base = BaseUnit.nonSIBySymbol[token] { return UnitAtom(base) }
        if let base = BaseUnit.siBySymbol[token] { return UnitAtom(base) }
        if let mole = try resolveMole(token, prefix: .none, at: start) { return mole }
        for (symbol, prefix) in HKMetricPrefix.bySymbolLongestFirst where token.hasPrefix(symbol) {
            let rest = String(token.dropFirst(symbol.count))
            if let base = BaseUnit.siBySymbol[rest] { return UnitAtom(base, prefix: prefix) }
            if let mole = try resolveMole(rest, prefix: prefix, at: start) { return mole }
        }
        if token == "mol" { throw fail("a mole unit needs its molar mass, as in mol<180.16>", at: start) }
        // A whole string that names nothing is not named twice in the message.
        throw fail(
            token == source
                ? "no unit has that name (such as count, kg, km, kcal, count/min)" : "'\(token)' is not a unit",
            at: token == source ? nil : start
        )
    }

    /// `mol<M>` with a positive, finite molar mass; `nil` if `token` is not a mole.
    private func resolveMole(_ token: String, prefix: HKMetricPrefix, at start: Int) throws(HKError) -> UnitAtom? {
        guard token.hasPrefix("mol<"), token.hasSuffix(">") else { return nil }
        let number = token.dropFirst(4).dropLast()
        guard let mass = Double(number), mass.isFinite, mass > 0 else {
            throw fail("the molar mass in '\(token)' is not a positive number", at: start)
        }
        return UnitAtom(.mole, prefix: prefix, molarMass: mass)
    }

    private func peek() -> Unicode.Scalar? {
        position < scalars.count ? scalars[position] : nil
    }

    private func fail(_ reason: String, at index: Int? = nil) -> HKError {
        let shown = source.count > 64 ? String(source.prefix(64)) + "…" : source
        let location = index.map { " (at character \($0 + 1))" } ?? ""
        return .invalid("UNIT-1", "'\(shown)' is not a unit string: \(reason)\(location)")
    }
}
