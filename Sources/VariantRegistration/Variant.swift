import BenchCore
import BenchSuites
import StressChecks
import VariantProtocols

/// A synchronization pattern registered with DispatchBench, to be timed, counted and stress-checked beside the
/// other variants of the suite it joins, under an id of its own. Made by one of the factories (`lock(_:_:)`,
/// `once(_:_:)`, …) and passed to `DispatchBench.main(_:)`. The built-in variants are made by the same factories:
/// a built-in variant is one whose module is `built-in`, nothing more.
///
/// The factories are `@inlinable`: the benchmarks they register are compiled in the caller's module for the
/// concrete type, so a brought-in variant is timed as tightly as a built-in one (no existential in a timed loop).
public struct Variant: Sendable, CustomStringConvertible {
    /// The CSV `variant` id, chosen by the package: lower-case letters, digits, `-`, `_` and `.`.
    public let id: String
    /// The suite it joins, as in the CSV `suite` column (`isolation`).
    public let suite: String
    /// The module that brought it, read from the call site's `#fileID`; `built-in` for DispatchBench's own.
    public private(set) var module: String
    /// The name of the type that implements it, for the variant tables; nil for a baseline with no type.
    package let typeName: String?
    /// Adds the variant's benchmarks to a registry.
    @usableFromInline let addBenchmarks: @Sendable (inout BenchmarkRegistry) -> Void
    /// What the stress checks build to race it.
    package let subject: StressSubject

    @usableFromInline
    init(id: String, suite: String, fileID: String, type: Any.Type?, subject: StressSubject,
         addBenchmarks: @escaping @Sendable (inout BenchmarkRegistry) -> Void) {
        self.id = id
        self.suite = suite
        self.module = String(fileID.prefix { $0 != "/" })
        self.typeName = type.map { String(describing: $0) }
        self.subject = subject
        self.addBenchmarks = addBenchmarks
    }

    /// `suite/id`, as a test's arguments and a failure message name it.
    public var description: String { "\(suite)/\(id)" }

    /// The benchmarks the variant joins, each carrying the variant's module as its origin.
    package var benchmarks: [Benchmark] {
        var registry = BenchmarkRegistry()
        addBenchmarks(&registry)
        return registry.benchmarks.map { benchmark in
            var benchmark = benchmark
            benchmark.origin = module
            return benchmark
        }
    }

    /// This variant as one of DispatchBench's own: its module is `built-in`.
    package func builtIn() -> Variant {
        var variant = self
        variant.module = BenchmarkCase.builtInOrigin
        return variant
    }
}
