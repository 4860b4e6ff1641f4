// swift-tools-version: 6.1
//
// Anchorage: HealthKit's data model and queries on Linux, rebuilt as an
// event-sourced store on LMDB. The module layout follows DESIGN.md:
//
//   AnchorageCore (the clock and the error shape every module shares)
//   AnchorageModel (no storage)
//   CLMDB → LMDB → AnchorageLog → (Anchorage = AnchorageLog + AnchorageModel,
//   AnchorageSync) → AppleHealthImport, AnchorageServer → AnchorageCLI
//
// A module imports only the layers beneath it.

import PackageDescription

/// Settings every Swift target shares: Swift 6 mode with complete strict
/// concurrency, plus the upcoming features the style guide asks for.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The AnchorageClient target's settings: the strict ones but
/// InternalImportsByDefault. Its generated files import Foundation's types
/// and OpenAPIRuntime in every file, used there or not; as `public import`s
/// each unused one would warn before Swift 6.4, so Scripts/generate-client
/// writes plain imports, which are public without that feature.
let generatedClientSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// `ANCHORAGE_LMDB_FAULTS` compiles a fault-injection hook into the one
/// function every `mdb_*` return code passes through, so tests can force
/// `ENOSPC`, `EIO`, `MDB_MAP_FULL`… at a named C function. Debug builds only:
/// release builds (and `Scripts/bench`) carry no trace of it.
let lmdbSettings: [SwiftSetting] =
    strictSettings + [.define("ANCHORAGE_LMDB_FAULTS", .when(configuration: .debug))]

let package = Package(
    name: "Anchorage",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AnchorageCore", targets: ["AnchorageCore"]),
        .library(name: "LMDB", targets: ["LMDB"]),
        .library(name: "AnchorageLog", targets: ["AnchorageLog"]),
        .library(name: "CoreLocation", targets: ["CoreLocation"]),
        .library(name: "AnchorageModel", targets: ["AnchorageModel"]),
        .library(name: "Anchorage", targets: ["Anchorage"]),
        .library(name: "HealthKit", targets: ["HealthKit"]),
        .library(name: "AppleHealthImport", targets: ["AppleHealthImport"]),
        .library(name: "AnchorageSync", targets: ["AnchorageSync"]),
        .library(name: "AnchorageKeys", targets: ["AnchorageKeys"]),
        .library(name: "AnchorageService", targets: ["AnchorageService"]),
        .library(name: "AnchorageServer", targets: ["AnchorageServer"]),
        .library(name: "AnchorageClient", targets: ["AnchorageClient"]),
        .library(name: "Etcd", targets: ["Etcd"]),
        .library(name: "AnchorageFleet", targets: ["AnchorageFleet"]),
        .library(name: "AnchorageTesting", targets: ["AnchorageTesting"]),
        .library(name: "AnchorageStoreTesting", targets: ["AnchorageStoreTesting"]),
        .executable(name: "anchorage", targets: ["anchorage"]),
        .executable(name: "AnchorageBench", targets: ["AnchorageBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.36.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        // Debian's liblmdb-dev, through pkg-config. Modulemap and shim only.
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        // The PKCS#11 interface (Debian's libp11-kit-dev, through
        // pkg-config): headers only, the token's module is loaded at run time.
        .systemLibrary(
            name: "CPKCS11",
            pkgConfig: "p11-kit-1",
            providers: [.apt(["libp11-kit-dev"])]
        ),
        // glibc's <malloc.h> (mallopt, malloc_trim). Modulemap and shim only.
        .systemLibrary(name: "CMalloc"),
        // BoringSSL's AEAD functions, declared for the log's sealing: their
        // definitions are swift-crypto's (Sources/CAEAD/shim.h says why).
        .systemLibrary(name: "CAEAD"),
        // What every module shares: the one injected clock and the one
        // error shape. No dependencies.
        .target(
            name: "AnchorageCore",
            swiftSettings: strictSettings
        ),
        // A safe, general LMDB binding: no domain types.
        .target(
            name: "LMDB",
            dependencies: ["AnchorageCore", "CLMDB", "CMalloc"],
            swiftSettings: lmdbSettings
        ),
        // The generic event log: entries, anchors, projections, version
        // vector, checkpoints, hash chain. It never decodes a health payload.
        .target(
            name: "AnchorageLog",
            dependencies: [
                "AnchorageCore",
                "LMDB",
                // BoringSSL's AEAD contexts, as swift-crypto links them.
                "CAEAD",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // The part of CoreLocation HealthKit's API names (CLLocation and its
        // coordinate), under CoreLocation's names: Linux has no CoreLocation.
        .target(
            name: "CoreLocation",
            swiftSettings: strictSettings
        ),
        // HealthKit's data model without storage: types, units, objects,
        // predicates, sorting, the payload codec, JSON, errors, text forms,
        // the statistics types and the reference evaluator. Imports no
        // project module but CoreLocation, so the compiler keeps it free of LMDB.
        .target(
            name: "AnchorageModel",
            dependencies: ["AnchorageCore", "CoreLocation"],
            swiftSettings: strictSettings
        ),
        // The store on the log: HKHealthStore, queries, statistics views.
        // Re-exports AnchorageModel, so ports write one import.
        .target(
            name: "Anchorage",
            dependencies: [
                "AnchorageCore",
                "AnchorageModel",
                "AnchorageLog",
                "LMDB",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // `import HealthKit` for ports on Linux: re-exports Anchorage.
        .target(
            name: "HealthKit",
            dependencies: ["Anchorage"],
            swiftSettings: strictSettings
        ),
        // Replication: the protocol's messages and batches, the session state
        // machine, the replicator, the transport protocol and an in-memory
        // transport. Moves entries verbatim; never decodes a health payload.
        .target(
            name: "AnchorageSync",
            dependencies: [
                "AnchorageCore",
                "AnchorageLog",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictSettings
        ),
        // etcd's v3 API through its HTTP JSON gateway: the fleet's coordinator.
        .target(
            name: "Etcd",
            dependencies: [
                "AnchorageCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // The fleet's coordination on etcd: membership, the controller's
        // claim, placements. Knows nothing of health data or stores' contents.
        .target(
            name: "AnchorageFleet",
            dependencies: [
                "AnchorageCore",
                "Etcd",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Debian's libxml2-dev, through pkg-config: the SAX2 push parser the
        // importer drives. Modulemap and shim only.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // Streams the Health app's export (export.zip, its folder, or
        // export.xml) into a store, on libxml2; never FoundationXML.
        .target(
            name: "AppleHealthImport",
            dependencies: [
                "AnchorageCore",
                "Anchorage",
                "AnchorageLog",
                "CLibXML2",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strictSettings
        ),
        // The use cases every front end shares (HTTP routes, CLI commands,
        // webhook delivery): the change feed's one wire form and sessions,
        // statistics requests and their tables, writes, one back-off.
        // Data keys wrapped by a wrapping key behind a KeyProvider: a key
        // file, or a PKCS#11 token (an HSM).
        .target(
            name: "AnchorageKeys",
            dependencies: [
                "AnchorageCore",
                "AnchorageLog",
                "CPKCS11",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AnchorageService",
            dependencies: [
                "AnchorageCore",
                "Anchorage",
                "AnchorageKeys",
                "AnchorageLog",
                "AnchorageSync",
                "CMalloc",
                "LMDB",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // The node's HTTP service (Hummingbird 2): change feed, samples,
        // statistics, sources, health and metrics, bearer-token auth.
        .target(
            name: "AnchorageServer",
            dependencies: [
                "AnchorageCore",
                "Anchorage",
                "AnchorageFleet",
                "AnchorageKeys",
                "AnchorageLog",
                "Etcd",
                "AnchorageService",
                "AnchorageSync",
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // A client of a node's HTTP API, generated from docs/openapi.json by
        // Scripts/generate-client (Generated/, committed), with a small
        // hand-written layer: pulling and following changes by anchor, typed
        // errors. Imports nothing of the project, so any Swift service can
        // depend on it without LMDB or the store.
        .target(
            name: "AnchorageClient",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            ],
            exclude: ["Generated/openapi.json.sha256"],
            swiftSettings: generatedClientSettings
        ),
        // The command line's commands, a library so that tests can run them.
        .target(
            name: "AnchorageCLI",
            dependencies: [
                "Anchorage",
                "AnchorageClient",
                "AnchorageKeys",
                "AnchorageLog",
                "AnchorageServer",
                "AnchorageService",
                "AnchorageSync",
                "AppleHealthImport",
                "AnchorageFleet",
                "Etcd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // `anchorage`: a thin main over AnchorageCLI.
        .executableTarget(
            name: "anchorage",
            dependencies: [
                "AnchorageCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // Test helpers that need no store: seeded generators, random objects,
        // field-by-field object comparison, temporary directories and a
        // clock tests move by hand. Builds without LMDB.
        .target(
            name: "AnchorageTesting",
            dependencies: ["AnchorageModel"],
            swiftSettings: strictSettings
        ),
        // Starts the test process's pool probe (PoolProbe.swift) from a
        // constructor, since Swift Testing has no hook around a whole run.
        .target(name: "CPoolProbe"),
        // What the test run itself needs, linked only into the tests: the
        // pool probe, the trait that bounds how many tests that start
        // processes run at once, and the one that runs a test on a thread of
        // its own, off Swift's cooperative pool.
        .target(
            name: "AnchorageTestRun",
            dependencies: ["CPoolProbe"],
            swiftSettings: strictSettings
        ),
        // Test helpers on a store: temporary stores and generated histories
        // checked against the reference evaluator.
        .target(
            name: "AnchorageStoreTesting",
            dependencies: [
                "Anchorage", "AnchorageLog", "AnchorageTesting", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        // `Scripts/bench` runs this in release mode.
        .executableTarget(
            name: "AnchorageBench",
            dependencies: [
                "Anchorage",
                "AnchorageKeys",
                "AnchorageServer",
                "AnchorageService",
                "AppleHealthImport",
                "AnchorageLog",
                "AnchorageSync",
                "AnchorageTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // Reads Fixtures/healthkit-interface/ (HealthKit's published Swift
        // declarations, each marked with Anchorage's status) and writes the
        // conformance suite and docs/healthkit-compatibility.md. No project
        // imports: it treats Anchorage as text.
        .target(
            name: "HealthKitInterface",
            dependencies: ["AnchorageCore"],
            swiftSettings: strictSettings
        ),
        // `Scripts/generate-healthkit-conformance`.
        .executableTarget(
            name: "healthkit-interface",
            dependencies: [
                "HealthKitInterface",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // A child process for the crash-safety tests: it appends in a loop and
        // prints every acknowledged anchor until it is killed.
        .executableTarget(
            name: "LogCrashWriter",
            dependencies: ["AnchorageLog", "AnchorageTesting", "LMDB"],
            path: "Tests/LogCrashWriter",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "LMDBTests",
            dependencies: ["AnchorageTestRun", "LMDB"],
            swiftSettings: lmdbSettings
        ),
        // Against a real three-member etcd (Debian's etcd-server), started on free loopback ports.
        .testTarget(
            name: "EtcdTests",
            dependencies: ["AnchorageTestRun", "Etcd", "AnchorageTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AnchorageFleetTests",
            dependencies: [
                "AnchorageCore", "AnchorageTestRun", "AnchorageFleet", "Etcd", "AnchorageTesting",
            ],
            swiftSettings: strictSettings
        ),
        // The model's tests: no store, so no LMDB in their build.
        .testTarget(
            name: "AnchorageModelTests",
            dependencies: ["AnchorageTestRun", "AnchorageModel", "AnchorageTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AnchorageTests",
            dependencies: [
                "AnchorageTestRun", "Anchorage", "AnchorageLog", "AnchorageStoreTesting", "AnchorageTesting", "LMDB",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AnchorageCLITests",
            dependencies: [
                "AnchorageTestRun",
                "AnchorageCLI",
                "Anchorage",
                "AnchorageKeys",
                "AnchorageLog",
                "AnchorageService",
                "AnchorageStoreTesting",
                "AnchorageTesting",
                "AnchorageServer",
                "LMDB",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            resources: [.copy("Golden")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AnchorageServerTests",
            dependencies: [
                "AnchorageCore",
                "AnchorageTestRun",
                "AnchorageFleet",
                "Etcd",
                "anchorage",
                "AnchorageClient",
                "AnchorageCLI",
                "AnchorageService",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "AnchorageServer",
                "Anchorage",
                "AnchorageStoreTesting",
                "AnchorageTesting",
                "AnchorageKeys",
                "AnchorageLog",
                "AnchorageSync",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AnchorageServiceTests",
            dependencies: [
                "AnchorageCore",
                "AnchorageTestRun",
                "AnchorageService", "Anchorage", "AnchorageLog", "AnchorageStoreTesting", "AnchorageTesting", "LMDB",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AnchorageSyncTests",
            dependencies: [
                "AnchorageCore",
                "AnchorageTestRun", "AnchorageTesting", "AnchorageStoreTesting", "AnchorageSync", "Anchorage",
                "AnchorageLog",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AppleHealthImportTests",
            dependencies: [
                "AnchorageTestRun",
                "AnchorageTesting",
                "AnchorageStoreTesting",
                "AppleHealthImport",
                "Anchorage",
                "AnchorageLog",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strictSettings
        ),
        // README's module table against this manifest and the sources' imports.
        // And the generated client against docs/openapi.json's digest.
        .testTarget(
            name: "RepositoryTests",
            dependencies: ["AnchorageTestRun", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HealthKitInterfaceTests",
            dependencies: ["AnchorageTestRun", "HealthKitInterface"],
            swiftSettings: strictSettings
        ),
        // Generated from Fixtures/healthkit-interface/: every HealthKit member
        // Anchorage supports, used exactly as declared. Written as app code is:
        // Swift 6 mode without the package's stricter upcoming features.
        .testTarget(
            name: "HealthKitConformanceTests",
            dependencies: ["Anchorage"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Ports' code as HealthKit's documentation shows it, under `import
        // HealthKit` and `import CoreLocation`, compiled and run.
        .testTarget(
            name: "HealthKitPortTests",
            dependencies: ["HealthKit", "CoreLocation", "AnchorageStoreTesting", "AnchorageTesting"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "AnchorageKeysTests",
            dependencies: [
                "AnchorageKeys",
                "AnchorageLog",
                "AnchorageTestRun",
                "AnchorageTesting",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AnchorageLogTests",
            dependencies: [
                "AnchorageCore",
                "AnchorageTestRun",
                "AnchorageTesting",
                "AnchorageLog",
                "LogCrashWriter",
                .product(name: "Crypto", package: "swift-crypto"),
                // swift-crypto's AES-256-GCM-SIV, which the log's own calls are checked against.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
