/// One point of a benchmark's grid: a variant, a thread count and a value for each named parameter.
/// This is what a results row identifies, and what `--filter` and `--list` see.
@usableFromInline package struct BenchmarkCase: Sendable, Hashable, CustomStringConvertible {
    package let suite: String
    package let benchmark: String
    package let variant: String
    @usableFromInline package let threads: Int
    /// Named parameters such as `tokens` or `read_pct`.
    package let parameters: [String: Int]
    /// Where the variant comes from: `builtInOrigin` for DispatchBench's own, else the module that brought it
    /// (the CSV `variant_origin`).
    package let origin: String

    /// The `origin` of DispatchBench's own variants.
    package static let builtInOrigin = "built-in"

    package init(suite: String, benchmark: String, variant: String, threads: Int, parameters: [String: Int] = [:],
                origin: String = builtInOrigin) {
        self.suite = suite
        self.benchmark = benchmark
        self.variant = variant
        self.threads = threads
        self.parameters = parameters
        self.origin = origin
    }

    /// `suite/benchmark/variant`: the string `--filter` matches.
    @usableFromInline package var path: String { "\(suite)/\(benchmark)/\(variant)" }

    /// The parameters, plus the row's `role` when its threads play one, as `key=value` pairs sorted by key and
    /// joined by `;` (empty when none): the CSV `params`.
    package func parameterString(role: String? = nil) -> String {
        var fields = parameters.mapValues(String.init)
        if let role { fields["role"] = role }
        return fields.keys.sorted().map { "\($0)=\(fields[$0]!)" }.joined(separator: ";")
    }

    /// `once/hit/array-tracker threads:4 tokens:100`.
    @usableFromInline package var description: String {
        ([path, "threads:\(threads)"] + parameters.keys.sorted().map { "\($0):\(parameters[$0]!)" })
            .joined(separator: " ")
    }

    /// The value of a parameter the benchmark declared. Traps on an undeclared name: that is a bug in the suite.
    @usableFromInline package subscript(parameter name: String) -> Int {
        guard let value = parameters[name] else { preconditionFailure("\(path) has no parameter '\(name)'") }
        return value
    }
}
