// swift-tools-version: 6.1
import PackageDescription

/// DispatchBench: what Grand Central Dispatch patterns really cost, measured on real threads.
///
/// The rooms, from the inside out:
/// - `BenchPlatform`: the platform seam, the one place the harness calls the operating system (clock, threads,
///   processes, files); `CBenchPlatform` holds the few of those calls Swift cannot make. What only Linux offers is
///   stated there once (`PlatformFeature`). The patterns under test reach pthread through `CSyncSupport` instead.
/// - `BenchCore`: the measurement core (clock, thread team, calibration, statistics, case registry). No file I/O.
/// - `SyncVariants`: the synchronization patterns under test, readable and reusable on their own.
///   `CSyncSupport` holds the few lines of C they need (what a C caller of those APIs gets and Swift does not).
/// - `VariantCatalog`: one catalog per family binding each CSV id to its type and to what it can do; the suites,
///   the stress tests and the README's variant tables all read it.
/// - `BenchSuites` (in `Benchmarks/`): one file per family, declaring the cases that measure the variants.
/// - `StressChecks`: the stress checks and their negative controls (deliberately broken variants), grading what
///   they observe as jcstress does; run by the tests and by `bench stress`.
/// - `BenchResults`: the results CSV schema, its writer and reader, and the run's environment.
/// - `DispatchBench`: the command line as a library, and the door for patterns brought from outside
///   (`DispatchBench.main(_:)`, `Variant`): a package that depends on this one gets the whole `bench` command line
///   with its own variants beside the built-in ones.
/// - `bench`: the command-line tool, a client of `DispatchBench` with the built-in variants alone.
/// - `BenchTestSupport` (in `Tests/`): fixtures that more than one test target needs; only tests link it.
let package = Package(
    name: "DispatchBench",
    products: [
        .executable(name: "bench", targets: ["bench"]),
        .library(name: "DispatchBench", targets: ["DispatchBench"]),
        .library(name: "SyncVariants", targets: ["SyncVariants"]),
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
        .target(name: "SyncVariants", dependencies: ["CSyncSupport"]),
        .target(name: "VariantCatalog", dependencies: ["SyncVariants"]),
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
            name: "DispatchBench",
            dependencies: [
                "BenchCore",
                "BenchPlatform",
                "BenchSuites",
                "BenchResults",
                "CBenchSupport",
                "CSyncSupport",
                "StressChecks",
                "SyncVariants",
                "VariantCatalog",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "bench", dependencies: ["DispatchBench"]),
        .target(name: "BenchTestSupport", path: "Tests/BenchTestSupport"),
        .testTarget(name: "BenchCoreTests", dependencies: ["BenchCore", "BenchSuites", "BenchTestSupport"]),
        .testTarget(name: "BenchResultsTests", dependencies: ["BenchResults", "BenchCore"]),
        .testTarget(
            name: "SyncVariantsTests", dependencies: ["SyncVariants", "VariantCatalog", "BenchCore", "StressChecks"]
        ),
        .testTarget(name: "BenchSuitesTests", dependencies: ["BenchSuites", "VariantCatalog", "BenchCore"]),
        .testTarget(name: "DispatchBenchTests", dependencies: ["DispatchBench", "BenchCore", "StressChecks"]),
        .testTarget(
            name: "BenchCLITests",
            dependencies: ["bench", "DispatchBench", "BenchCore", "BenchResults", "StressChecks", "BenchTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
