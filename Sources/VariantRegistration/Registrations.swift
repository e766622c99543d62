import BenchCore
import BenchSuites
import Foundation
import StressChecks
import Synchronization

/// The variants this process measures: the built-in ones (`Variant.builtIn`) and those it was given from outside
/// (`DispatchBench.main(_:)`), registered the same way, and everything a command asks of the registry and the
/// stress checks with them: the one place where built-in and brought-in variants meet.
package enum Registrations {
    private static let registered = Mutex<[Variant]>([])

    /// Records `variants` as this process's brought-in variants, after checking each id (`checked`).
    package static func register(_ variants: [Variant]) throws {
        let accepted = try checked(variants)
        registered.withLock { $0 = accepted }
    }

    /// `variants`, once each id is known to be well formed and to name no case that a built-in variant or an
    /// earlier one of `variants` already has; else the first problem, as an error that says what to do.
    package static func checked(_ variants: [Variant]) throws -> [Variant] {
        let builtIn = registry(adding: []).variantPaths
        var taken = builtIn
        for variant in variants {
            guard variant.id.range(of: #"^[a-z0-9][a-z0-9._-]*$"#, options: .regularExpression) != nil else {
                throw RegistrationError("variant id '\(variant.id)' (from \(variant.module)) must be lower-case "
                                        + "letters, digits, '-', '_' or '.', starting with a letter or digit")
            }
            let paths = variant.benchmarkPaths
            if let clash = paths.sorted().first(where: taken.contains) {
                throw RegistrationError("variant id '\(variant.id)' (from \(variant.module)) is taken: \(clash) is "
                                        + (builtIn.contains(clash) ? "a built-in case" : "registered twice")
                                        + "; choose another id")
            }
            taken.formUnion(paths)
        }
        return variants
    }

    /// The variants brought from outside, in the order they were given.
    package static var variants: [Variant] { registered.withLock { $0 } }

    /// Every benchmark: the harness's, then every variant's, the built-in variants before the brought-in ones.
    /// The benchmarks of one suite and name stay together, in the order the first of them was registered, so that
    /// each benchmark lists its variants in catalog order with the brought-in ones after them.
    package static func registry(spinScale: Double = 1, adding brought: [Variant] = variants) -> BenchmarkRegistry {
        let joined = (Variant.builtIn + brought).flatMap(\.benchmarks)
        var order: [String] = []
        for benchmark in joined where !order.contains(benchmark.path) {
            order.append(benchmark.path)
        }
        var registry = BenchmarkRegistry.harness(spinScale: spinScale)
        for path in order {
            for benchmark in joined where benchmark.path == path {
                registry.add(benchmark)
            }
        }
        return registry
    }

    /// The `suite/benchmark/variant` of every case that no decision chooses among: the harness's (the floor under
    /// every case) and the baselines' (`once/race/barrier-only`, subtracted from the others, never chosen), as
    /// scripts/analyze's decisions leave them out (judge/situations.py `FLOOR_SUITES`, `NOTES`' baselines). The
    /// adaptive run's stopping rule gives them no line to clear (`StoppingRule`).
    package static func pathsInNoDecision(adding brought: [Variant] = variants) -> Set<String> {
        BenchmarkRegistry.harness().variantPaths.union(
            (Variant.builtIn + brought).filter(\.isBaseline).flatMap(\.benchmarkPaths))
    }

    /// The stress checks of every variant, the built-in ones first, then those of the seed patterns no family
    /// times (`StressCatalog.patterns`).
    package static func stressVariants(adding brought: [Variant] = variants) -> [StressCase] {
        (Variant.builtIn + brought).flatMap(\.stressCases) + StressCatalog.patterns
    }
}

/// A variant that cannot be registered, and what to do.
package struct RegistrationError: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension Benchmark {
    /// `suite/name`.
    fileprivate var path: String { "\(suite)/\(name)" }
}

extension Variant {
    /// Whether the variant is a suite's baseline, which makes no call of a pattern.
    var isBaseline: Bool {
        if case .baseline = subject { true } else { false }
    }

    /// The `suite/benchmark/id` of every benchmark the variant joins.
    package var benchmarkPaths: Set<String> {
        var registry = BenchmarkRegistry()
        addBenchmarks(&registry)
        return registry.variantPaths
    }
}
