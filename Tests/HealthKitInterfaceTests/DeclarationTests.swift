import HealthKitInterface
import Testing

@Suite("Reading HealthKit's declarations")
struct DeclarationTests {
    @Test("functions: labels, parameter types with closures and defaults, effects and results")
    func functions() throws {
        let unit = try Declaration(parsing: "class func gramUnit(with prefix: HKMetricPrefix) -> Self")
        #expect(unit.fullName == "gramUnit(with:)")
        #expect(unit.isTypeMember)
        #expect(unit.resultType == "Self")

        let query = try Declaration(
            parsing:
                "init(sampleType: HKSampleType, predicate: NSPredicate?, limit: Int, sortDescriptors: [NSSortDescriptor]?, resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void)"
        )
        #expect(query.fullName == "init(sampleType:predicate:limit:sortDescriptors:resultsHandler:)")
        #expect(query.parameters.count == 5)
        #expect(query.parameters[4].type == "@escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void")

        let save = try Declaration(parsing: "func save(_ objects: [HKObject]) async throws")
        #expect(save.fullName == "save(_:)")
        #expect(save.isAsync && save.throwsClause == "throws" && save.resultType == nil)

        let descriptor = try Declaration(
            parsing:
                "init(predicates: [HKSamplePredicate<Sample>], sortDescriptors: [SortDescriptor<Sample>], limit: Int? = nil)"
        )
        #expect(descriptor.parameters.map(\.hasDefault) == [false, false, true])
        #expect(descriptor.parameters[2].type == "Int?")

        let compatible = try Declaration(parsing: "func `is`(compatibleWith unit: HKUnit) -> Bool")
        #expect(compatible.fullName == "`is`(compatibleWith:)")
    }

    @Test("properties, cases, failable initializers, aliases")
    func others() throws {
        let property = try Declaration(parsing: "var metadata: [String : Any]? { get }")
        #expect(property.kind == .property(settable: false))
        #expect(property.resultType == "[String : Any]?")
        let settable = try Declaration(parsing: "var limit: Int? { get set }")
        #expect(settable.kind == .property(settable: true))
        let constant = try Declaration(parsing: "static let stepCount: HKQuantityTypeIdentifier")
        #expect(constant.isTypeMember && constant.kind == .property(settable: false))
        let cases = try Declaration(parsing: "case asleepCore, asleepDeep")
        #expect(cases.kind == .enumCase(["asleepCore", "asleepDeep"]))
        let failable = try Declaration(parsing: "init?(rawValue: Int)")
        #expect(failable.kind == .initializer(failable: true))
        let alias = try Declaration(parsing: "typealias HKObserverQueryCompletionHandler = @Sendable () -> Void")
        #expect(alias.kind == .typeAlias && alias.resultType == "@Sendable () -> Void")
    }

    @Test("what is not a declaration of the subset is refused with the line")
    func refusals() {
        #expect(throws: DeclarationError.self) { try Declaration(parsing: "subscript(index: Int) -> Int") }
        #expect(throws: DeclarationError.self) { try Declaration(parsing: "var x") }
        #expect(throws: InterfaceFormatError.self) {
            try InterfaceFile(parsing: "    var a: Int { get }\n", name: "T")
        }
        #expect(throws: InterfaceFormatError.self) {
            try InterfaceFile(parsing: "type A: class\n    var a: Int { get }  !maybe: no\n", name: "T")
        }
    }

    @Test("a file: headers, generics, nested types, status marks")
    func file() throws {
        let text = """
            # comment
            type HKUnit: class NSObject, NSSecureCoding  !differs: a value type => struct Sendable, Hashable
                class func gram() -> Self
                convenience init(from massFormatterUnit: MassFormatter.Unit)  !linux: no formatters
                func reciprocal() -> HKUnit  !differs: named differently => func inverse() -> HKUnit

            type HKAnchoredObjectQueryDescriptor<Sample: HKSample>.Result: struct

            global
                let HKMetadataKeyDeviceSerialNumber: String
            """
        let file = try InterfaceFile(parsing: text, name: "T")
        #expect(file.types.map(\.name) == ["HKUnit", "HKAnchoredObjectQueryDescriptor.Result", ""])
        #expect(file.types[0].inherits == ["NSObject", "NSSecureCoding"])
        #expect(file.types[0].status == .differs(how: "a value type", replacement: "struct Sendable, Hashable"))
        #expect(file.types[0].members[1].status == .linux(reason: "no formatters"))
        #expect(file.types[0].members[2].checkedDeclaration == "func inverse() -> HKUnit")
        #expect(file.types[1].spelledInContext == "HKAnchoredObjectQueryDescriptor<Sample>.Result")
        let table = CompatibilityTable(files: [file])
        #expect(table.counts.supported == 2 && table.counts.differs == 1 && table.counts.linux == 1)
        let suite = try ConformanceRenderer(file: file, knownClasses: ["NSObject"]).render()
        #expect(suite.contains("same(exactType(HKUnit.gram), (() -> HKUnit).self)"))
        #expect(suite.contains("same(exactType(HKUnit.inverse), ((HKUnit) -> () -> HKUnit).self)"))
        #expect(!suite.contains("MassFormatter"))
        #expect(suite.contains("conforms<T: Hashable>"))
        #expect(!suite.contains("conforms<T: NSSecureCoding>"))
        #expect(suite.contains("same(exactType(HKMetadataKeyDeviceSerialNumber), (String).self)"))
    }
}
