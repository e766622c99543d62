#include "SyncSupport.h"

_Thread_local void *sync_once_pending_block = 0;
