import CSyncSupport

/// A handoff with a pthread mutex and condition variable (`handoff/condition`), the baseline under GCD's
/// primitives: a `turn` flag says whose move it is; each side sets it, signals, and waits in a loop until the
/// flag comes back.
///
/// The flag is only read and written with the mutex held and every wait re-checks it, so a signal sent before
/// the other side waits is not lost (the flag already says so) and a spurious wake-up only loops.
/// `@unchecked Sendable`: `turn` is guarded by `mutex`. Thread-safe for one initiator and one responder.
@usableFromInline
package final class ConditionHandoff: Handoff, @unchecked Sendable {
    private enum Turn { case initiator, responder }

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var turn = Turn.initiator

    @usableFromInline
    package init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    @usableFromInline
    package func ping() {
        pthread_mutex_lock(mutex)
        turn = .responder
        pthread_cond_signal(condition)
        while turn != .initiator { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    @usableFromInline
    package func pong() {
        pthread_mutex_lock(mutex)
        while turn != .responder { pthread_cond_wait(condition, mutex) }
        turn = .initiator
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }
}
