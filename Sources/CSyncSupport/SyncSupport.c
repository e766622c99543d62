#include "SyncSupport.h"

_Thread_local void *sync_once_pending_block = 0;

// Clang spells it __has_feature(thread_sanitizer), GCC __SANITIZE_THREAD__.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SYNC_THREAD_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define SYNC_THREAD_SANITIZER 1
#endif

bool sync_built_with_thread_sanitizer(void) {
#if defined(SYNC_THREAD_SANITIZER)
    return true;
#else
    return false;
#endif
}
