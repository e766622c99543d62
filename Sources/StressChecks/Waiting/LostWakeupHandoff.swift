import Dispatch
import Foundation
import Synchronization
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked (caught by the lost-wake-up check). A condition-variable handoff whose responder
/// checks the flag without the mutex and then waits once: a ping that lands between the check and the wait is lost, and
/// both threads sleep for ever. `sched_yield()` widens that window. `rescue()` wakes the sleepers so that a test can
/// end the threads.
package final class LostWakeupHandoff: Handoff, @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// 0: the initiator's turn, 1: the responder's. Atomic so that the broken unlocked read is not also a data race.
    private let turn = Atomic<Int>(0)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func ping() {
        pthread_mutex_lock(mutex)
        turn.store(1, ordering: .sequentiallyConsistent)
        pthread_cond_signal(condition)
        while turn.load(ordering: .sequentiallyConsistent) != 0 { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    package func pong() {
        if turn.load(ordering: .sequentiallyConsistent) != 1 {
            sched_yield()
            pthread_mutex_lock(mutex)
            pthread_cond_wait(condition, mutex)
            pthread_mutex_unlock(mutex)
        }
        pthread_mutex_lock(mutex)
        turn.store(0, ordering: .sequentiallyConsistent)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    package func rescue() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
