// swift-tools-version: 6.1
import PackageDescription

/// DispatchBench: what Grand Central Dispatch patterns really cost, measured on real threads.
///
/// The rooms, from the inside out:
/// - `BenchPlatform`: the platform seam, the one place the harness calls the operating system (clock, threads,
///   processes, files); `CBenchPlatform` holds the few of those calls Swift cannot make. What only Linux offers is
///   stated there once (`PlatformFeature`). The patterns under test reach pthread through `CSyncSupport` instead.
/// - `BenchCore`: the measurement core (clock, thread team, calibration, statistics, case registry). No file I/O.
/// - `VariantProtocols`: what a variant conforms to (`ExclusiveLock`, `LockStore`, `OnceTable`, `TaskWaiter`, …),
///   the built-in ones and the ones a package brings alike.
/// - `SyncVariants`: the built-in synchronization patterns under test, readable and reusable on their own.
///   `CSyncSupport` holds the few lines of C they need (what a C caller of those APIs gets and Swift does not).
/// - `VariantCatalog`: one catalog per family: each built-in variant's CSV id and the line the variant table of
///   docs/suites.md shows for it.
/// - `BenchSuites` (in `Benchmarks/`): one file per family, declaring the benchmarks a variant joins.
/// - `StressChecks`: the stress checks and their negative controls (deliberately broken variants), grading what
///   they observe as jcstress does; run by the tests and by `bench stress`.
/// - `VariantRegistration`: `Variant`, the one way a variant is registered, built-in or brought in: its
///   factories join a variant to its family's benchmarks and stress checks. The built-in variants are made with
///   the same factories (`BuiltInVariants.swift`).
/// - `BenchResults`: the results CSV schema, its writer and reader, and the run's environment.
/// - `BenchCommandLine`: the whole `bench` command line, internal to this package.
/// - `DispatchBench`: the door for patterns brought from outside (`DispatchBench.main(_:)`, `Variant` and the
///   protocols of `VariantProtocols`): a package that depends on this one gets the whole `bench` command line with
///   its own variants beside the built-in ones.
/// - `bench`: the command-line tool, a client of `DispatchBench` with the built-in variants alone.
/// - `BenchTestSupport` (in `Tests/`): fixtures that more than one test target needs; only tests link it.
let package = Package(
    name: "DispatchBench",
    products: [
        .executable(name: "bench", targets: ["bench"]),
        .library(name: "DispatchBench", targets: ["DispatchBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "CBenchPlatform"),
        .target(name: "BenchPlatform", dependencies: ["CBenchPlatform"]),
        .target(name: "CBenchSupport"),
        .target(
            name: "BenchCore",
            dependencies: [
                "BenchPlatform",
                "CBenchSupport",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .target(name: "CSyncSupport"),
        .target(name: "VariantProtocols"),
        .target(name: "SyncVariants", dependencies: ["CSyncSupport", "VariantProtocols"]),
        .target(name: "VariantCatalog"),
        .target(
            name: "BenchSuites",
            dependencies: ["BenchCore", "CBenchSupport", "CSyncSupport", "SyncVariants", "VariantCatalog"],
            path: "Benchmarks"
        ),
        .target(name: "BenchResults", dependencies: ["BenchCore", "BenchPlatform"]),
        .target(
            name: "StressChecks",
            dependencies: ["BenchCore", "BenchPlatform", "CSyncSupport", "SyncVariants", "VariantCatalog"]
        ),
        .target(
            name: "VariantRegistration",
            dependencies: [
                "BenchCore", "BenchSuites", "StressChecks", "SyncVariants", "VariantCatalog", "VariantProtocols",
            ]
        ),
        .target(
            name: "BenchCommandLine",
            dependencies: [
                "BenchCore",
                "BenchPlatform",
                "BenchResults",
                "BenchSuites",
                "CBenchSupport",
                "CSyncSupport",
                "StressChecks",
                "SyncVariants",
                "VariantCatalog",
                "VariantRegistration",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "DispatchBench", dependencies: ["BenchCommandLine", "VariantProtocols", "VariantRegistration"]),
        .executableTarget(name: "bench", dependencies: ["DispatchBench"]),
        .target(name: "BenchTestSupport", path: "Tests/BenchTestSupport"),
        .testTarget(name: "BenchCoreTests", dependencies: ["BenchCore", "BenchSuites", "BenchTestSupport"]),
        .testTarget(name: "BenchResultsTests", dependencies: ["BenchResults", "BenchCore"]),
        .testTarget(
            name: "SyncVariantsTests",
            dependencies: ["SyncVariants", "VariantCatalog", "VariantRegistration", "BenchCore", "StressChecks"]
        ),
        .testTarget(
            name: "BenchSuitesTests", dependencies: ["BenchSuites", "VariantCatalog", "VariantRegistration", "BenchCore"]
        ),
        .testTarget(
            name: "VariantRegistrationTests",
            dependencies: ["VariantRegistration", "BenchCommandLine", "BenchCore", "StressChecks", "SyncVariants"]
        ),
        .testTarget(
            name: "BenchCLITests",
            dependencies: [
                "bench", "BenchCommandLine", "BenchCore", "BenchResults", "StressChecks", "VariantRegistration",
                "BenchTestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
