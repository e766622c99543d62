import DispatchBench
import Synchronization

final class SpinLock: ExclusiveLock {
    private let held = Atomic<Bool>(false)

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        while !held.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {}
        defer { held.store(false, ordering: .releasing) }
        return try body()
    }
}

DispatchBench.main([
    .lock("my-spin-lock") { SpinLock() },
])
