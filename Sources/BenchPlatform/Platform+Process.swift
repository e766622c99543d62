import CBenchPlatform
#if os(Linux)
import Glibc
#else
import Darwin
#endif

/// The whole process's CPU time and context switches so far (`getrusage(RUSAGE_SELF)`).
package struct ProcessUsage: Sendable {
    package var userNanoseconds: UInt64
    package var systemNanoseconds: UInt64
    /// Switches because a thread blocked.
    package var voluntaryContextSwitches: Int
    /// Switches because the scheduler preempted a thread.
    package var involuntaryContextSwitches: Int
}

extension Platform {
    /// The process's CPU time and context switches so far.
    package static func processUsage() -> ProcessUsage {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func nanoseconds(_ time: timeval) -> UInt64 {
            UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1_000
        }
        return ProcessUsage(
            userNanoseconds: nanoseconds(usage.ru_utime),
            systemNanoseconds: nanoseconds(usage.ru_stime),
            voluntaryContextSwitches: usage.ru_nvcsw,
            involuntaryContextSwitches: usage.ru_nivcsw
        )
    }

    /// Ends the process with `status` (`exit`: atexit handlers run, stdio buffers are flushed). For code where
    /// a command's own `exit` hides the C library's.
    package static func exit(_ status: Int32) -> Never {
        #if os(Linux)
        Glibc.exit(status)
        #else
        Darwin.exit(status)
        #endif
    }

    /// This process's id.
    package static var processID: Int32 { getpid() }

    /// The parent process's id (1, or a subreaper's, once the parent has ended and the process was adopted).
    package static var parentProcessID: Int32 { getppid() }

    /// Whether a process `pid` exists (a signal 0 finds it, or finds it but may not signal it).
    package static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// The environment variable `name`, or nil when it is not set (set to "" is not nil).
    package static func environmentVariable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Sets the environment variable `name` for this process and the processes it starts later.
    package static func setEnvironmentVariable(_ name: String, to value: String) {
        setenv(name, value, 1)
    }

    /// A path that names this process's executable: the target of /proc/self/exe (so that a process started from
    /// it is still named after it), /proc/self/exe itself when that cannot be read. Linux only: elsewhere the
    /// path the process was started with, which is enough while the working directory has not changed.
    package static var executablePath: String {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return "/proc/self/exe" }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        return CommandLine.arguments[0]
        #endif
    }

    /// Replaces this process with `executable`, run with this process's own arguments, byte for byte, and the
    /// current environment (`execv`). Returns only when that failed, with the reason.
    package static func restartProcess(as executable: String) -> SystemError {
        execv(executable, CommandLine.unsafeArgv)
        return .last
    }

    /// Replaces this process with `executable`, run with `arguments` (the program's name first) and the current
    /// environment (`execv`). Returns only when that failed, with the reason.
    package static func replaceProcess(with executable: String, arguments: [String]) -> SystemError {
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        execv(executable, argv)
        return .last
    }

    /// Asks the kernel to send `signal` to this process when its parent ends (PR_SET_PDEATHSIG), across later
    /// execs; nil when done. Linux only (`PlatformFeature.parentBinding`): elsewhere ENOSYS.
    package static func dieWithParent(signal: Int32) -> SystemError? {
        let error = platform_die_with_parent(signal)
        return error == 0 ? nil : SystemError(code: error)
    }

    /// Makes the process ignore signal `number`, so that it is seen only by whoever watches for it (a dispatch source).
    package static func ignoreSignal(_ number: Int32) {
        _ = signal(number, SIG_IGN)
    }
}
