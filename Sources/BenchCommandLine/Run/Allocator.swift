import ArgumentParser
import BenchCore
import BenchPlatform
import Foundation

/// The allocator a timed run uses. Swapping it moves timings (package-benchmark's users report ±50%), so it is
/// the user's choice, glibc's by default, and every row records which one ran.
enum Allocator: String, ExpressibleByArgument, CaseIterable {
    case system, jemalloc

    /// Makes the process run on this allocator: for jemalloc, restarts it with Debian's library preloaded
    /// (an allocator cannot be swapped in a running process). Returns only when the process already runs on it.
    func ensureLoaded() throws {
        switch self {
        case .system:
            if JemallocStatistics.isLoaded {
                throw BenchError("--allocator system, but jemalloc is preloaded (unset LD_PRELOAD)")
            }
        case .jemalloc:
            if JemallocStatistics.isLoaded { return }
            if let note = PlatformFeature.jemallocPreload.unavailableNote { throw BenchError(note) }
            guard let library = CountTools.jemallocLibrary() else {
                throw BenchError("--allocator jemalloc needs jemalloc's shared library (apt-get install libjemalloc-dev)")
            }
            let preload = ProcessInfo.processInfo.environment["LD_PRELOAD"].map { "\(library):\($0)" } ?? library
            Platform.setEnvironmentVariable("LD_PRELOAD", to: preload)
            let error = BenchMain.restart()
            throw BenchError("could not restart bench with jemalloc preloaded: \(error)")
        }
    }
}
