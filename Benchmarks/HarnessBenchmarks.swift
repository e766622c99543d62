import BenchCore
import SyncVariants
#if canImport(Glibc)
import Glibc
#endif

extension BenchmarkRegistry {
    /// The harness's own floor, carried by every run so that each results file says what its loop, a call and
    /// a lock cost on the machine that wrote it.
    ///
    /// - `harness/empty/loop`: the timed loop with nothing in it but keeping the counter alive.
    /// - `harness/opaque-call/call`: one call of a function the optimizer cannot see into.
    /// - `harness/lazy-static/static-let`: one read of a `static let` through `LazyStatic.value()`.
    /// - `harness/mutex-pair/pthread-mutex`: one uncontended `pthread_mutex_lock`/`unlock` pair per thread
    ///   (each thread has its own mutex), to compare with a hand-written loop (`bench self-check`).
    mutating func addHarnessBenchmarks() {
        add(Benchmark(suite: "harness", name: "empty", variants: ["loop"]) { _ in
            Workload { _, iterations in
                for index in 0..<iterations { blackHole(index) }
            }
        })
        add(Benchmark(suite: "harness", name: "opaque-call", variants: ["call"]) { _ in
            Workload { _, iterations in
                for index in 0..<iterations { blackHole(opaqueIdentity(index)) }
            }
        })
        add(Benchmark(suite: "harness", name: "lazy-static", variants: ["static-let"]) { _ in
            Workload { _, iterations in
                for _ in 0..<iterations { blackHole(LazyStatic.value()) }
            }
        })
        add(Benchmark(suite: "harness", name: "mutex-pair", variants: ["pthread-mutex"]) { benchmarkCase in
            let mutexes = PthreadMutexes(count: benchmarkCase.threads)
            return Workload(teardown: { mutexes.destroy() }) { worker, iterations in
                let mutex = mutexes[worker.index]
                for _ in 0..<iterations {
                    pthread_mutex_lock(mutex)
                    pthread_mutex_unlock(mutex)
                }
            }
        })
    }
}

/// One heap-allocated `pthread_mutex_t` per thread, each on its own cache line, so that threads never share one.
final class PthreadMutexes: @unchecked Sendable {
    private static let stride = 128 / MemoryLayout<pthread_mutex_t>.stride + 1
    private let storage: UnsafeMutablePointer<pthread_mutex_t>
    private let count: Int

    init(count: Int) {
        self.count = count
        storage = .allocate(capacity: count * Self.stride)
        for index in 0..<count { pthread_mutex_init(storage + index * Self.stride, nil) }
    }

    subscript(index: Int) -> UnsafeMutablePointer<pthread_mutex_t> {
        storage + index * Self.stride
    }

    func destroy() {
        for index in 0..<count { pthread_mutex_destroy(storage + index * Self.stride) }
        storage.deallocate()
    }
}
