import CBenchPlatform
#if os(Linux)
import Glibc
#else
import Darwin
#endif

/// A barrier for a fixed number of threads that meet again and again: `wait` returns in each thread once all
/// `parties` have called it, and the barrier is ready for the next meeting. Blocking (the kernel puts waiters to
/// sleep), so a meeting costs a wake-up of each waiter: for the start and end of a job, not inside one.
///
/// Thread-safe. On Linux a `pthread_barrier_t`; Darwin has none, so elsewhere a mutex, a condition variable and a
/// meeting count do the same.
@usableFromInline package final class ThreadBarrier: @unchecked Sendable {
    #if os(Linux)
    @usableFromInline let barrier: UnsafeMutablePointer<pthread_barrier_t>

    /// A barrier for `parties` threads (at least 1).
    package init(parties: Int) {
        precondition(parties >= 1, "a barrier needs at least one party")
        barrier = .allocate(capacity: 1)
        pthread_barrier_init(barrier, nil, UInt32(parties))
    }

    deinit {
        pthread_barrier_destroy(barrier)
        barrier.deallocate()
    }

    /// Blocks until all parties have called `wait` for this meeting. Inlined: no call is added to the barrier's.
    @inlinable @inline(__always)
    package func wait() {
        pthread_barrier_wait(barrier)
    }
    #else
    private let parties: Int
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    // Guarded by `mutex`.
    private var arrived = 0
    private var meeting = 0

    /// A barrier for `parties` threads (at least 1).
    package init(parties: Int) {
        precondition(parties >= 1, "a barrier needs at least one party")
        self.parties = parties
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

    /// Blocks until all parties have called `wait` for this meeting.
    package func wait() {
        pthread_mutex_lock(mutex)
        let current = meeting
        arrived += 1
        if arrived == parties {
            arrived = 0
            meeting &+= 1
            pthread_cond_broadcast(condition)
        } else {
            while meeting == current { pthread_cond_wait(condition, mutex) }
        }
        pthread_mutex_unlock(mutex)
    }
    #endif
}

extension Platform {
    /// Lets the calling thread run on `cpu` alone from now on; nil when done, else why not (EINVAL for a CPU this
    /// process may not use or that does not exist). Linux only (`PlatformFeature.cpuPinning`): elsewhere ENOSYS.
    package static func pinCurrentThread(toCPU cpu: Int) -> SystemError? {
        let error = platform_pin_current_thread(Int32(clamping: cpu))
        return error == 0 ? nil : SystemError(code: error)
    }

    /// How many OS threads this process has right now: the entries of `/proc/self/task`, one per kernel thread.
    /// Costs a few microseconds (a directory read). Nil where that cannot be read: no procfs, or not Linux
    /// (`PlatformFeature.osThreadCount`).
    package static func osThreadCount() -> Int? {
        #if os(Linux)
        guard let directory = opendir("/proc/self/task") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            // Every entry but `.` and `..` is a thread id.
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { name in name[0] == UInt8(ascii: ".") }
            if !isDot { count += 1 }
        }
        return count
        #else
        return nil
        #endif
    }
}
