import DispatchBench
import NIOConcurrencyHelpers

// swift-nio's lock already has `withLock`; this says it keeps ExclusiveLock's promise.
extension NIOLock: @retroactive ExclusiveLock {}

DispatchBench.main([
    // A real lock that no one here wrote.
    .lock("nio-lock") { NIOLock() },
    // A spin lock of our own on swift-atomics: it waits on the CPU, never in the kernel.
    .lock("ttas-lock") { TTASLock() },
    // The built-in `mutex` store's code, compiled here: it should measure as `mutex` does.
    .lockStore("mutex-outside", MutexDictionary.self),
    // A homemade once in the style of seed 000: tokens in an array behind a lock.
    .once("array-token-once", ArrayTokenOnce.self),
    // Deliberately broken: `bench stress` must catch it.
    .lockStore("copy-publish", CopyPublishStore.self),
])
