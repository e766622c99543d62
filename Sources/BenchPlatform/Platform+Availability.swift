/// What only some systems offer, each fact stated once: whether this build has it, and the one line that says so
/// where it does not. Every feature here is Linux's; a caller asks `unavailableNote` and shows it (or stops with
/// it) instead of failing later with a system error.
package enum PlatformFeature: CaseIterable, Sendable {
    /// `bench count`'s instruction counts: valgrind's callgrind.
    case instructionCounts
    /// jemalloc preloaded from Debian's package (`--allocator jemalloc`, `bench count`'s allocation pass).
    case jemallocPreload
    /// Running a thread on one CPU alone (`Platform.pinCurrentThread(toCPU:)`).
    case cpuPinning
    /// Counting the process's OS threads (`Platform.osThreadCount()`, from /proc).
    case osThreadCount
    /// Each measured thread's time on a CPU, on a run queue and its switches in (`ThreadScheduleReader`, from
    /// /proc's schedstat and the thread's CPU-time clock).
    case schedulerStatistics
    /// The time the hypervisor stole from the CPUs the measured threads ran on (`CPUStealReader`, from /proc/stat;
    /// `ThreadProcessorReader`, from each thread's /proc stat).
    case stealTime
    /// Rounds in processes of their own (`bench --rounds`), which read the run's environment from an anonymous
    /// file in memory (`FileDescriptor.anonymousFile(named:)`).
    case separateRounds
    /// Child processes that die with their parent (`Platform.dieWithParent(signal:)`). Where it is missing,
    /// children start directly and could outlive a killed run.
    case parentBinding

    /// Whether this build has the feature.
    package var isAvailable: Bool {
        #if os(Linux)
        true
        #else
        false
        #endif
    }

    /// Nil where the feature is available; else one line that names what needs it and why it cannot run here.
    package var unavailableNote: String? {
        guard !isAvailable else { return nil }
        return switch self {
        case .instructionCounts: "bench count needs valgrind on Linux; this platform has none"
        case .jemallocPreload:
            "jemalloc statistics need jemalloc preloaded on Linux; this platform runs the system allocator"
        case .cpuPinning:
            "pinning threads to CPUs needs Linux (sched_setaffinity); this platform leaves placement to the scheduler"
        case .osThreadCount: "OS thread counts need Linux (/proc); the os_threads columns stay empty on this platform"
        case .schedulerStatistics:
            "each thread's running and run-queue time need Linux (/proc/self/task/<id>/schedstat); the sched_ columns "
                + "stay empty on this platform"
        case .stealTime:
            "the time a hypervisor stole from the threads' CPUs needs Linux (/proc/stat); the steal_ columns stay "
                + "empty on this platform"
        case .separateRounds: "bench --rounds needs Linux (an anonymous file in memory); run one round at a time here"
        case .parentBinding:
            "children cannot be bound to their parent here (Linux's PR_SET_PDEATHSIG); a killed run may leave some"
        }
    }
}
