#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `pthread-once`: POSIX `pthread_once` over a table of `count` `pthread_once_t` controls (tokens are
/// `0..<count`), each at a stable heap address and initialized to `PTHREAD_ONCE_INIT`.
///
/// `pthread_once` takes a C function without a context argument, so the block is handed to it through a
/// thread-specific slot (`pthread_setspecific` before the call, read by the init routine, which runs on the
/// calling thread). That store is paid on every call, hits included: it is the price of running an arbitrary
/// Swift block through this API (and why this `once` takes an escaping block: see `OnceTracker`). glibc's fast
/// path is then one acquire load of the control.
///
/// Thread-safe: for each token the block runs once, and callers that lose the race wait until it has returned.
/// Blocks of different tokens may run at the same time. A block that calls `once` for its own token deadlocks.
public final class PthreadOnce: OnceTable, @unchecked Sendable {
    /// The number of tokens (controls) in the table.
    public let count: Int
    /// `count` controls, written only by `pthread_once` after initialization.
    private let controls: UnsafeMutablePointer<pthread_once_t>
    /// `blockKey`, read once: the key the init routine reads the block from.
    private let key: pthread_key_t

    /// One key for every table (a process has a limited number): the calling thread's current block.
    private static let blockKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    public init(count: Int) {
        precondition(count >= 1, "a table holds at least one control")
        self.count = count
        key = Self.blockKey
        controls = .allocate(capacity: count)
        controls.initialize(repeating: pthread_once_t(PTHREAD_ONCE_INIT), count: count)
    }

    deinit {
        controls.deallocate()
    }

    public static func makeTable(tokens: Int) -> PthreadOnce {
        PthreadOnce(count: tokens)
    }

    public func once(token: Int, block: @escaping () -> Void) {
        precondition(token >= 0 && token < count, "token \(token) outside 0..<\(count)")
        var context = OnceBlock(body: block)
        withUnsafeMutablePointer(to: &context) { context in
            pthread_setspecific(key, context)
            pthread_once(controls + token) {
                pthread_getspecific(PthreadOnce.blockKey)!.assumingMemoryBound(to: OnceBlock.self).pointee.body()
            }
        }
    }
}
