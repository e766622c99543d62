import BenchCore
import BenchSuites
import Foundation
import StressChecks
import Synchronization

/// The variants this process was given from outside (`DispatchBench.main(_:)`), and everything a command asks of
/// the registry and the stress catalog with them added: the one place where built-in and brought-in variants meet.
enum Registrations {
    private static let brought = Mutex<[Variant]>([])

    /// Records `variants` for this process, after checking each id (`checked`).
    static func register(_ variants: [Variant]) throws {
        let accepted = try checked(variants)
        brought.withLock { $0 = accepted }
    }

    /// `variants`, once each id is known to be well formed, unique among them, and no built-in variant's in its
    /// suite; else the first problem, as an error that says what to do.
    static func checked(_ variants: [Variant]) throws -> [Variant] {
        let builtIn = BenchmarkRegistry.all().variantPaths
        var seen = Set<String>()
        for variant in variants {
            guard variant.id.range(of: #"^[a-z0-9][a-z0-9._-]*$"#, options: .regularExpression) != nil else {
                throw BenchError("variant id '\(variant.id)' (from \(variant.module)) must be lower-case letters, "
                                 + "digits, '-', '_' or '.', starting with a letter or digit")
            }
            if builtIn.contains(where: { $0.hasPrefix("\(variant.suite)/") && $0.hasSuffix("/\(variant.id)") }) {
                throw BenchError("variant id '\(variant.id)' (from \(variant.module)) is already a built-in "
                                 + "\(variant.suite) variant: choose another id")
            }
            guard seen.insert("\(variant.suite)/\(variant.id)").inserted else {
                throw BenchError("variant id '\(variant.id)' (from \(variant.module)) is registered twice in "
                                 + "\(variant.suite)")
            }
        }
        return variants
    }

    /// The variants brought from outside, in the order they were given.
    static var variants: [Variant] { brought.withLock { $0 } }

    /// Every benchmark, the built-in ones first (`BenchmarkRegistry.all`), then each brought-in variant's.
    static func registry(spinScale: Double = 1, adding brought: [Variant] = variants) -> BenchmarkRegistry {
        var registry = BenchmarkRegistry.all(spinScale: spinScale)
        for variant in brought { variant.addBenchmarks(&registry) }
        return registry
    }

    /// The stress checks of every variant, the built-in ones first.
    static func stressVariants(adding brought: [Variant] = variants) -> [StressCase] {
        StressCatalog.variants + brought.flatMap(\.stressCases)
    }
}

extension Variant {
    /// The checks `bench stress` runs on this variant: its family's, under `family/id/check`.
    var stressCases: [StressCase] {
        switch subject {
        case .store(let make):
            StressCatalog.lockStoreCases(name: "\(suite)/\(id)", make: make)
        }
    }
}
