import CSyncSupport
import Foundation
import Synchronization
import SyncVariants

/// NEGATIVE CONTROL, never benchmarked (caught by the lost-wake-up check). A condition-variable handoff whose responder
/// waits for the ping's signal without first checking, under the mutex, whether the ping has already come: a signal
/// sent before the wait is lost, and both threads sleep for ever.
///
/// Caught in the first round trip, at any speed: this responder lets the ping land before it waits (it watches the
/// turn until the initiator has taken it, then locks, which it can do only once the initiator waits), so the signal
/// it waits for has always been sent already. `rescue()` wakes the sleepers, and makes both sides return at once
/// from then on, so that a check can end the threads.
package final class LostWakeupHandoff: Handoff, @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// 0: the initiator's turn, 1: the responder's. Atomic so that the broken unlocked read is not also a data race.
    private let turn = Atomic<Int>(0)
    private let rescued = Atomic<Bool>(false)

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
        while turn.load(ordering: .sequentiallyConsistent) != 0 && !rescued.load(ordering: .sequentiallyConsistent) {
            pthread_cond_wait(condition, mutex)
        }
        pthread_mutex_unlock(mutex)
    }

    package func pong() {
        while turn.load(ordering: .sequentiallyConsistent) != 1 && !rescued.load(ordering: .sequentiallyConsistent) {
            sched_yield()
        }
        pthread_mutex_lock(mutex)
        if !rescued.load(ordering: .sequentiallyConsistent) {
            pthread_cond_wait(condition, mutex)  // the bug: one wait, for a signal that was sent before it
        }
        turn.store(0, ordering: .sequentiallyConsistent)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    package func rescue() {
        rescued.store(true, ordering: .sequentiallyConsistent)
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
