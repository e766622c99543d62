import CSyncSupport
import Foundation
import Synchronization
import SyncVariants

/// RACY NEGATIVE CONTROL, never benchmarked (caught by the lost-wake-up check): a condition-variable handoff that
/// signals without holding the mutex and waits without a predicate, as people write it when they take a condition
/// variable for a semaphore. A ping signalled before the responder waits is lost, and both threads sleep for ever.
///
/// Unlike `LostWakeupHandoff`, nothing here makes the signal come first: a responder that is back in its wait before
/// the next ping, as it is on a quiet machine whenever waking the initiator takes longer than its own way back,
/// never loses one. Whether it does depends on when the two threads meet, which the check's jitter varies
/// (`handoffOutcomes`); the check's power against it is measured, not promised (`StressCatalog.handoffPower`).
/// `rescue()` wakes the sleepers, and makes both sides return at once from then on, so that a check can end the
/// threads.
package final class UnlockedSignalHandoff: Handoff, @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let pinged = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let ponged = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let rescued = Atomic<Bool>(false)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(pinged, nil)
        pthread_cond_init(ponged, nil)
    }

    deinit {
        pthread_cond_destroy(pinged)
        pthread_cond_destroy(ponged)
        pthread_mutex_destroy(mutex)
        pinged.deallocate()
        ponged.deallocate()
        mutex.deallocate()
    }

    package func ping() {
        pthread_cond_signal(pinged)  // the bug: no mutex, no flag; lost unless the responder already waits
        wait(on: ponged)  // the mutex, held from here into the wait, keeps the answer from coming first
    }

    package func pong() {
        wait(on: pinged)
        pthread_cond_signal(ponged)
    }

    /// Waits once on `condition`, with no predicate (the bug), unless rescued.
    private func wait(on condition: UnsafeMutablePointer<pthread_cond_t>) {
        pthread_mutex_lock(mutex)
        if !rescued.load(ordering: .sequentiallyConsistent) { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    package func rescue() {
        rescued.store(true, ordering: .sequentiallyConsistent)
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(pinged)
        pthread_cond_broadcast(ponged)
        pthread_mutex_unlock(mutex)
    }
}
