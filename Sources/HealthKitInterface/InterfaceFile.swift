/// One annotated interface file of `Fixtures/healthkit-interface/`: HealthKit's
/// declarations, grouped by the type that declares them, each with what
/// Anchorage does with it.
///
/// ```swift
/// let file = try InterfaceFile(parsing: text, name: "Units")
/// print(file.types.map(\.name))  // ["HKUnit", "HKMetricPrefix", "HKQuantity"]
/// ```
public struct InterfaceFile: Sendable, Hashable {
    /// The file's name without its extension, e.g. `Units`.
    public var name: String
    /// The types in the order the file declares them; `global` is a type
    /// named `""`.
    public var types: [InterfaceType]

    public init(name: String, types: [InterfaceType]) {
        self.name = name
        self.types = types
    }
}

/// What Anchorage does with one of HealthKit's members or types.
public enum MemberStatus: Sendable, Hashable {
    /// Declared exactly as HealthKit declares it.
    case supported
    /// Present, but not exactly as declared: `how` says in what way and why;
    /// `replacement` is Anchorage's own declaration when given.
    case differs(how: String, replacement: String?)
    /// Cannot exist off Apple's platforms, for the reason given.
    case linux(reason: String)
    /// About data Anchorage does not store (electrocardiograms, clinical
    /// records…), for the reason given.
    case model(reason: String)
    /// Not built yet: a gap, counted apart so that it shows.
    case missing(reason: String)
}

/// One type's block: its header line and its members.
public struct InterfaceType: Sendable, Hashable {
    /// The kind of declaration a block describes.
    public enum Kind: String, Sendable, Hashable {
        case `class`, `struct`, `enum`, `protocol`, global
    }

    /// The type's name as written, nested types with dots
    /// (`HKStatisticsCollectionQueryDescriptor.Result`); `""` for `global`.
    public var name: String
    /// Generic parameters with their constraints, e.g. `Sample: HKSample`.
    public var genericParameters: [GenericParameter]
    public var kind: Kind
    /// An enum's raw type, e.g. `Int`.
    public var rawType: String?
    /// Superclass first (for classes), then protocols, as listed.
    public var inherits: [String]
    public var status: MemberStatus
    public var members: [InterfaceMember]
    /// The 1-based line of the `type` header.
    public var line: Int

    public init(
        name: String,
        genericParameters: [GenericParameter] = [],
        kind: Kind,
        rawType: String? = nil,
        inherits: [String] = [],
        status: MemberStatus = .supported,
        members: [InterfaceMember] = [],
        line: Int = 0
    ) {
        self.name = name
        self.genericParameters = genericParameters
        self.kind = kind
        self.rawType = rawType
        self.inherits = inherits
        self.status = status
        self.members = members
        self.line = line
    }

    /// The name with its generic parameters applied, as code inside a
    /// generic context refers to it: `HKSampleQueryDescriptor<Sample>`, or
    /// `HKAnchoredObjectQueryDescriptor<Sample>.Result`.
    public var spelledInContext: String {
        guard !genericParameters.isEmpty else { return name }
        let arguments = "<" + genericParameters.map(\.name).joined(separator: ", ") + ">"
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        return parts.count == 2 ? parts[0] + arguments + "." + parts[1] : name + arguments
    }

    /// Whether the conformance suite checks the type at all: not when its
    /// `type` line is marked `!linux:`, `!model:` or `!missing:`, which marks
    /// every member so.
    public var isChecked: Bool {
        switch status {
        case .supported, .differs: true
        case .linux, .model, .missing: false
        }
    }

    /// What Anchorage does with `member`: the type's mark when the type is
    /// not checked, else the member's own.
    public func status(of member: InterfaceMember) -> MemberStatus {
        isChecked ? member.status : status
    }

    /// The declaration the conformance suite must check for `member`, and
    /// the compatibility table counts as compiled; `nil` when neither.
    public func checkedDeclaration(of member: InterfaceMember) -> String? {
        isChecked ? member.checkedDeclaration : nil
    }

    /// The header line as the table shows it.
    public var header: String {
        var text = "\(kind.rawValue) \(name)"
        if kind == .global { return "Top-level constants and functions" }
        if !genericParameters.isEmpty {
            text += "<" + genericParameters.map { "\($0.name): \($0.constraint)" }.joined(separator: ", ") + ">"
        }
        let list = (rawType.map { [$0] } ?? []) + inherits
        if !list.isEmpty { text += " : " + list.joined(separator: ", ") }
        return text
    }
}

/// A generic parameter of a type, e.g. `Sample: HKSample`.
public struct GenericParameter: Sendable, Hashable {
    public var name: String
    public var constraint: String

    public init(name: String, constraint: String) {
        self.name = name
        self.constraint = constraint
    }
}

/// One member line: HealthKit's declaration and its status.
public struct InterfaceMember: Sendable, Hashable {
    /// The declaration exactly as HealthKit publishes it.
    public var declaration: String
    public var status: MemberStatus
    /// The 1-based line in the file.
    public var line: Int

    public init(declaration: String, status: MemberStatus = .supported, line: Int = 0) {
        self.declaration = declaration
        self.status = status
        self.line = line
    }

    /// Whether HealthKit deprecates it: the declaration carries
    /// `@available(*, deprecated…)`.
    public var isDeprecated: Bool {
        declaration.hasPrefix("@available(") && declaration.contains("deprecated")
    }

    /// The declaration the conformance suite checks: Anchorage's own when it
    /// differs and says so, else HealthKit's. `nil` when nothing is checked.
    /// A member of a type that is not checked has none either: see
    /// `InterfaceType.checkedDeclaration(of:)`.
    public var checkedDeclaration: String? {
        switch status {
        case .supported: declaration
        case .differs(_, let replacement): replacement
        case .linux, .model, .missing: nil
        }
    }
}
