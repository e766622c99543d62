#ifndef SYNC_SUPPORT_H
#define SYNC_SUPPORT_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

/// C shims for the synchronization variants: what a C caller of these APIs gets and Swift cannot import or express.
/// The inline functions are inlined into their Swift callers, so they cost what the same C would.
///
/// This header is also the variants' one door to the platform: pthread (the pthread variants are the patterns under
/// test, so they call it themselves) and sched_yield come to Swift through `import CSyncSupport`, never through an
/// Glibc or Darwin import of their own.

// MARK: - pthread-once

/// The block of the `pthread_once` call in progress on this thread. `pthread_once`'s init routine takes no
/// argument, so the caller parks its block here and the routine, which runs on the calling thread, reads it back.
/// Defined in SyncSupport.c; reached only through the two functions below.
extern _Thread_local void *sync_once_pending_block;

/// Parks `block` for the init routine: one plain store to thread-local storage, no call.
static inline __attribute__((always_inline)) void sync_once_set_pending_block(void *block) {
    sync_once_pending_block = block;
}

/// The block the calling thread parked last.
static inline __attribute__((always_inline)) void *sync_once_get_pending_block(void) {
    return sync_once_pending_block;
}

// MARK: - dispatch-once-inline

/// dispatch/once.h's inline fast path (`DISPATCH_ONCE_INLINE_FASTPATH`), which Swift does not import: whether the
/// `dispatch_once_t` predicate already reads "done" (~0). An acquire load, so that a caller that sees "done" also
/// sees everything the block wrote.
static inline __attribute__((always_inline)) bool sync_dispatch_once_is_done(const intptr_t *predicate) {
    return __atomic_load_n(predicate, __ATOMIC_ACQUIRE) == ~(intptr_t)0;
}

// MARK: - lazy-static

/// The predicate of the Swift runtime's `swift_once`: a zeroed, 8-byte aligned word, as the compiler emits beside
/// every global and `static let`. On Linux the runtime reads it as two 32-bit halves: a flag (negative once the
/// function has run) and the lock its slow path takes.
typedef intptr_t sync_swift_once_t;

/// The Swift runtime's run-once (`swift_once`, exported by libswiftCore), the very call a `static let` accessor
/// makes: runs `function(context)` once per predicate, and returns only once it has run. Declared here under a name
/// of our own and bound to the runtime's symbol, rather than through `@_silgen_name`.
void sync_swift_once(sync_swift_once_t *predicate, void (*function)(void *), void *context) __asm__("swift_once");

// MARK: - spin-lock

/// The processor's spin-wait hint (x86 `pause`, arm64 `yield`): tells the core that the loop around it only waits
/// for another core's store, so that it backs off the memory system and, with SMT, yields issue slots to its
/// sibling. An instruction, not a call: the thread stays on its CPU and the kernel never hears of it.
static inline __attribute__((always_inline)) void sync_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

// MARK: - build configuration

/// Whether this package was built with ThreadSanitizer (`swift build --sanitize=thread`), decided at compile time
/// in SyncSupport.c, which SwiftPM compiles with the same sanitizer flags as the Swift code; Swift's `#if` cannot
/// ask. Lets a test skip what TSan's interceptors change (see `DispatchOncePredicateTests`).
bool sync_built_with_thread_sanitizer(void);

#endif
