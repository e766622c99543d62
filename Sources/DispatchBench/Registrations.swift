import BenchCore
import BenchSuites
import Foundation
import StressChecks
import Synchronization

/// The variants this process was given from outside (`DispatchBench.main(_:)`), and everything a command asks of
/// the registry and the stress catalog with them added: the one place where built-in and brought-in variants meet.
enum Registrations {
    private static let registered = Mutex<[Variant]>([])

    /// Records `variants` for this process, after checking each id (`checked`).
    static func register(_ variants: [Variant]) throws {
        let accepted = try checked(variants)
        registered.withLock { $0 = accepted }
    }

    /// `variants`, once each id is known to be well formed and to name no case that a built-in variant or an
    /// earlier one of `variants` already has; else the first problem, as an error that says what to do.
    static func checked(_ variants: [Variant]) throws -> [Variant] {
        let builtIn = BenchmarkRegistry.all().variantPaths
        var taken = builtIn
        for variant in variants {
            guard variant.id.range(of: #"^[a-z0-9][a-z0-9._-]*$"#, options: .regularExpression) != nil else {
                throw BenchError("variant id '\(variant.id)' (from \(variant.module)) must be lower-case letters, "
                                 + "digits, '-', '_' or '.', starting with a letter or digit")
            }
            let paths = variant.benchmarkPaths
            if let clash = paths.sorted().first(where: taken.contains) {
                throw BenchError("variant id '\(variant.id)' (from \(variant.module)) is taken: \(clash) is "
                                 + (builtIn.contains(clash) ? "a built-in case" : "registered twice")
                                 + "; choose another id")
            }
            taken.formUnion(paths)
        }
        return variants
    }

    /// The variants brought from outside, in the order they were given.
    static var variants: [Variant] { registered.withLock { $0 } }

    /// Every benchmark, the built-in ones first (`BenchmarkRegistry.all`), then each brought-in variant's.
    /// Each brought-in benchmark carries the module that brought it as its origin.
    static func registry(spinScale: Double = 1, adding brought: [Variant] = variants) -> BenchmarkRegistry {
        var registry = BenchmarkRegistry.all(spinScale: spinScale)
        for variant in brought {
            var own = BenchmarkRegistry()
            variant.addBenchmarks(&own)
            for var benchmark in own.benchmarks {
                benchmark.origin = variant.module
                registry.add(benchmark)
            }
        }
        return registry
    }

    /// The stress checks of every variant, the built-in ones first.
    static func stressVariants(adding brought: [Variant] = variants) -> [StressCase] {
        StressCatalog.variants + brought.flatMap(\.stressCases)
    }
}

extension Variant {
    /// The `suite/benchmark/id` of every benchmark the variant joins.
    var benchmarkPaths: Set<String> {
        var registry = BenchmarkRegistry()
        addBenchmarks(&registry)
        return registry.variantPaths
    }

    /// The checks `bench stress` runs on this variant: its family's, under `family/id/check`, each carrying the
    /// module that brought the variant.
    var stressCases: [StressCase] {
        familyChecks.map { check in
            var check = check
            check.origin = module
            return check
        }
    }

    private var familyChecks: [StressCase] {
        switch subject {
        case .store(let make):
            StressCatalog.lockStoreCases(name: "\(suite)/\(id)", make: make)
        case .lock(let makeStore, let makeLock):
            StressCatalog.lockStoreCases(name: "\(suite)/\(id)", make: makeStore)
                + [StressCatalog.mutualExclusionCase(name: "\(suite)/\(id)", make: makeLock)]
        case .once(let table):
            [StressCatalog.onceCase(name: "\(suite)/\(id)", table)]
        case .fanOut(let make):
            [StressCatalog.fanOutCase(name: "wait/fan-out/\(id)", make: make)]
                + [StressCatalog.timeoutCase(name: "wait/fan-out/\(id)", make: make)].compactMap { $0 }
        case .throttle(let make):
            [StressCatalog.throttleCase(name: "wait/throttle/\(id)", make: make)]
        case .handoff(let make):
            [StressCatalog.handoffCase(name: "wait/handoff/\(id)", make: make)]
        }
    }
}
