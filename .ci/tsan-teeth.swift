// The TSan step's own negative control (see .ci/run): a program that races on purpose and must still be reported
// with .tsan-suppressions in force. The stress tests' controls cannot serve: they break atomicity (check, then act)
// with every single access behind a Mutex, which is no data race, so TSan has nothing to report in them.
//
// Each function below races four threads on one counter. `raceUnderAMutex` is correct: a contended Mutex, the
// false positive the suppression names (without it TSan usually reports it). `raceWithoutALock` is a real race,
// from a closure as well, so a suppression that matched any closure would hide it. TSan names the enclosing
// function in each report's SUMMARY line, which is what .ci/run checks.
import Foundation
import Synchronization

final class Counter: @unchecked Sendable {
    var value = 0
}

/// Runs `body` on `threads` new threads at once and returns when all have finished.
func onThreads(_ threads: Int, _ body: @escaping @Sendable () -> Void) {
    let finished = DispatchSemaphore(value: 0)
    for _ in 0..<threads {
        Thread {
            body()
            finished.signal()
        }.start()
    }
    for _ in 0..<threads { finished.wait() }
}

func raceUnderAMutex() -> Int {
    let counter = Mutex(0)
    onThreads(4) {
        for _ in 0..<20_000 { counter.withLock { $0 += 1 } }
    }
    return counter.withLock { $0 }
}

func raceWithoutALock() -> Int {
    let counter = Counter()
    onThreads(4) {
        for _ in 0..<1_000 { counter.value += 1 }
    }
    return counter.value
}

print("under a mutex: \(raceUnderAMutex()), without a lock: \(raceWithoutALock())")
