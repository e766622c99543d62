import BenchCommandLine
@_exported import VariantProtocols
@_exported import VariantRegistration

/// The door for a package that brings its own synchronization patterns: its executable calls `main(_:)` with them,
/// and gets the whole `bench` command line (timed runs, `count`, `stress`, `--list`, `--filter`, the worker that
/// paired comparisons use, `self-check`) with its variants beside the built-in ones.
///
/// A package's `Sources/MyBench/main.swift`:
///
///     import DispatchBench
///     import NIOConcurrencyHelpers
///
///     extension NIOLock: @retroactive ExclusiveLock {}
///
///     DispatchBench.main([
///         .lock("nio-lock") { NIOLock() },
///     ])
///
/// The built-in `bench` executable is the same call with no variants: the built-in variants are registered by the
/// same factories of `Variant`.
public enum DispatchBench {
    /// Runs the command line that `CommandLine.arguments` asks for, with `variants` registered beside the built-in
    /// ones, and exits with its status (see `bench --help`). An id that is malformed, used twice, or already a
    /// built-in variant's in the same suite is refused before anything runs, with a one-line error and status 64.
    public static func main(_ variants: [Variant] = []) -> Never {
        do {
            try Registrations.register(variants)
        } catch {
            BenchMain.fail(error)
        }
        BenchMain.main()
    }
}
