import AnchorageTestRun
import Foundation
import HealthKitInterface
import Testing

/// What the compatibility table claims against what the generated suite
/// checks, read from the generated text: a member the table calls supported
/// (or differing, with Anchorage's declaration given) must have a statement
/// of its own in its type's test, and each test's title must count exactly
/// those.
@Suite("The compatibility table counts only what the conformance suite compiles", .ownThread)
struct ConformanceCountingTests {
    /// One generated `@Test`: its title and the lines of its body.
    struct GeneratedTest {
        var title: String
        var body: [String]

        /// `HKUnit` in `HKUnit: 40 of 45 members…`.
        var typeName: Substring { title.prefix { $0 != ":" } }

        /// The two numbers of `NAME: CHECKED of ALL members…`.
        var counts: (checked: Int, all: Int)? {
            let words = title.dropFirst(typeName.count + 2).split(separator: " ")
            guard words.count >= 4, words[1] == "of", words[3].hasPrefix("members"),
                let checked = Int(words[0]), let all = Int(words[2])
            else { return nil }
            return (checked, all)
        }
    }

    /// The `@Test` functions of a generated suite file.
    static func tests(in source: String) -> [GeneratedTest] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var tests: [GeneratedTest] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            guard line.hasPrefix("    @Test(\""), let end = line.range(of: "\")", options: .backwards) else { continue }
            let title = String(line[line.index(line.startIndex, offsetBy: 11)..<end.lowerBound])
            index += 1  // `func name() {`
            var body: [String] = []
            while index < lines.count && lines[index] != "    }" {
                body.append(lines[index])
                index += 1
            }
            tests.append(GeneratedTest(title: title, body: body))
        }
        return tests
    }

    /// A line the compiler checks something with: not blank, a comment, a
    /// brace, an attribute or the opening of a local function.
    static func isCheck(_ line: String) -> Bool {
        let text = line.drop { $0 == " " }
        return !text.isEmpty && !text.hasPrefix("//") && text != "}" && text != "{" && !text.hasPrefix("@")
            && !text.hasPrefix("func ")
    }

    /// What the rendered table says of `member` of the type its `### ` heading
    /// `heading` names: the cell after the member's declaration.
    static func cell(in table: [String], heading: String, member: InterfaceMember) -> String? {
        guard let start = table.firstIndex(of: heading) else { return nil }
        let prefix = "| `" + member.declaration.replacingOccurrences(of: "|", with: "\\|") + "` | "
        for line in table[(start + 1)...] {
            if line.hasPrefix("### ") || line.hasPrefix("## ") { break }
            if line.hasPrefix(prefix) && line.hasSuffix(" |") {
                return String(line.dropFirst(prefix.count).dropLast(2))
            }
        }
        return nil
    }

    /// Whether the table's cell says the suite compiles the member: supported,
    /// or differing with Anchorage's declaration given.
    static func claimsCompiled(_ cell: String) -> Bool {
        cell == "supported" || (cell.hasPrefix("differs: ") && cell.hasSuffix("`") && cell.contains(" — `"))
    }

    @Test(
        "every member the table counts as supported or checked in Anchorage's form has a check of its own, and each title counts them"
    )
    func countedMembersAreChecked() throws {
        let generated = try GeneratedFiles(packageRoot: GeneratedFilesTests.packageRoot)
        let table = try #require(generated.files[GeneratedFiles.tablePath]).split(separator: "\n").map(String.init)
        var claimedSupported = 0
        var claimedCompiled = 0
        for file in generated.interfaces {
            let source = try #require(generated.files["\(GeneratedFiles.suiteFolder)/\(file.name).swift"])
            let tests = Self.tests(in: source)
            var fileTable = table
            if let start = table.firstIndex(of: "## \(file.name)") {
                let rest = table[(start + 1)...]
                fileTable = Array(rest.prefix { !$0.hasPrefix("## ") })
            }
            for type in file.types {
                let name = type.kind == .global ? "top-level constants and functions" : type.name
                let heading = type.kind == .global ? "### Top-level constants and functions" : "### `\(type.name)`"
                let claimed = try type.members.filter { member in
                    let cell = try #require(
                        Self.cell(in: fileTable, heading: heading, member: member),
                        "\(file.name):\(member.line) has no row in the table"
                    )
                    if cell == "supported" { claimedSupported += 1 }
                    return Self.claimsCompiled(cell)
                }
                claimedCompiled += claimed.count
                let matching = tests.filter { $0.typeName == name }
                #expect(matching.count <= 1, "\(file.name): \(name) has \(matching.count) tests")
                guard let test = matching.first else {
                    #expect(
                        claimed.isEmpty,
                        "\(file.name): \(name) has no test, yet the table counts \(claimed.count) members as compiled"
                    )
                    continue
                }
                var checked = 0
                for member in claimed {
                    let comment = "// " + member.declaration
                    let places = test.body.indices.filter { test.body[$0].drop { $0 == " " } == comment }
                    #expect(
                        places.count == 1,
                        "\(file.name):\(member.line) appears \(places.count) times in \(name)'s test"
                    )
                    guard let place = places.first else { continue }
                    let next = place + 1 < test.body.count ? test.body[place + 1] : ""
                    if Self.isCheck(next) {
                        checked += 1
                    } else {
                        Issue.record("\(file.name):\(member.line) is counted, but its comment is followed by `\(next)`")
                    }
                }
                let stated = try #require(test.counts, "unexpected title: \(test.title)")
                #expect(stated.checked == checked, "\(test.title): its body checks \(checked)")
                #expect(stated.all == type.members.count, "\(test.title): \(type.members.count) members")
            }
        }
        let counts = CompatibilityTable(files: generated.interfaces).counts
        #expect(counts.supported == claimedSupported)
        #expect(counts.compiled == claimedCompiled)
        #expect(claimedCompiled > 1000)
    }

    @Test("no generated test is empty: each has a statement the compiler checks")
    func noEmptyTests() throws {
        let generated = try GeneratedFiles(packageRoot: GeneratedFilesTests.packageRoot)
        var count = 0
        for (path, source) in generated.files where path.hasPrefix(GeneratedFiles.suiteFolder) {
            for test in Self.tests(in: source) {
                count += 1
                #expect(test.body.contains(where: Self.isCheck), "\(path): \(test.title) checks nothing")
            }
        }
        #expect(count > 100)
    }

    @Test("a type not on Linux, outside the model or not built yet gets no test; its members count under its mark")
    func skippedTypes() throws {
        let text = """
            type HKRoute: struct Sendable  !linux: no CoreLocation
                var count: Int { get }
                func next() -> Int

            type HKBeat: struct  !model: no heartbeats
                var time: Double { get }

            type HKSoon: struct  !missing: later
                var time: Double { get }

            type HKKept: struct
                var count: Int { get }
                func old() -> Int  !differs: renamed => func renamed() -> Int
                func gone() -> Int  !differs: removed
                func linuxless() -> Int  !linux: no CoreLocation
            """
        let file = try InterfaceFile(parsing: text, name: "T")
        let suite = try ConformanceRenderer(file: file, knownClasses: []).render()
        let tests = Self.tests(in: suite)
        #expect(tests.map(\.title) == ["HKKept: 2 of 4 members, 1 of them in Anchorage's documented form"])
        #expect(!suite.contains("HKRoute") && !suite.contains("HKBeat") && !suite.contains("HKSoon"))
        let counts = CompatibilityTable(files: [file]).counts
        #expect(counts.supported == 1 && counts.differs == 2 && counts.compiled == 2)
        #expect(counts.linux == 3 && counts.model == 1 && counts.missing == 1)
    }

    @Test(
        "generic and mutating functions are checked by a call next to their declaration; an overloaded one is refused"
    )
    func callChecks() throws {
        let text = """
            type HKIterator: struct
                mutating func next() async throws -> Int?
                func map<T>(_ transform: (Int) -> T) -> [T]
            """
        let file = try InterfaceFile(parsing: text, name: "T")
        let tests = Self.tests(in: try ConformanceRenderer(file: file, knownClasses: []).render())
        #expect(tests.map(\.title) == ["HKIterator: 2 of 2 members as HealthKit declares them"])
        let test = try #require(tests.first)
        let body = test.body.map { String($0.drop { $0 == " " }) }
        let next = try #require(body.firstIndex(of: "// mutating func next() async throws -> Int?"))
        #expect(
            Array(body[(next + 1)...].prefix(4)) == [
                "_ = { () async throws -> Void in",
                "var mutable: HKIterator = placeholder()",
                "let _: Int? = try await mutable.next()",
                "}",
            ]
        )
        let map = try #require(body.firstIndex(of: "// func map<T>(_ transform: (Int) -> T) -> [T]"))
        #expect(body[map + 1] == "_ = { () async throws -> Void in")
        #expect(body[map + 2].hasSuffix("(placeholder() as HKIterator).map(placeholder())"))

        let overloaded = """
            type HKIterator: struct
                mutating func next() -> Int?
                mutating func next(_ count: Int) -> Int?
                mutating func next(_ count: Double) -> Int?
            """
        let refused = try InterfaceFile(parsing: overloaded, name: "T")
        #expect(throws: ConformanceRenderer.Failure.self) {
            try ConformanceRenderer(file: refused, knownClasses: []).render()
        }
    }
}
