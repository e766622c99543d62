import CBenchPlatform
#if os(Linux)
import Glibc
#else
import Darwin
#endif

/// Every CPU's steal time since boot, as the kernel publishes it in `/proc/stat` (the 8th value of each `cpuN`
/// line): time the hypervisor ran something else while that virtual CPU had work to do. Counted in ticks of
/// 1/USER_HZ s (`nanoseconds(ticks:)`), so a difference of two readings is a whole number of ticks.
package struct CPUStealTicks: Sendable, Equatable {
    /// By CPU number: the count, or `PLATFORM_NO_STEAL` where the text gave none.
    private let ticks: [UInt64]

    init(_ ticks: [UInt64]) {
        self.ticks = ticks
    }

    /// The figures in `text`, the text of `/proc/stat` (`platform_cpu_steal_parse`); nil when it holds no `cpuN`
    /// line. Pure: tests give it any text.
    package init?(procStat text: String) {
        var text = text
        let parsed: [UInt64]? = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { characters in
                var cpus: Int32 = 0
                _ = platform_cpu_steal_parse(characters.baseAddress, characters.count, nil, 0, &cpus)
                let capacity = cpus
                var ticks = [UInt64](repeating: PLATFORM_NO_STEAL, count: Int(capacity))
                let lines = ticks.withUnsafeMutableBufferPointer {
                    platform_cpu_steal_parse(characters.baseAddress, characters.count, $0.baseAddress, capacity, &cpus)
                }
                return lines > 0 ? ticks : nil
            }
        }
        guard let parsed else { return nil }
        ticks = parsed
    }

    /// Entries from CPU 0 to the highest CPU the text had a line for; `subscript` is nil beyond.
    package var count: Int { ticks.count }

    /// CPU `cpu`'s steal ticks since boot; nil where the text gave no figure for it: no `cpu<cpu>` line (an offline
    /// CPU, a gap in the numbering, a number beyond the highest), or a line without a steal field.
    package subscript(cpu cpu: Int) -> UInt64? {
        guard ticks.indices.contains(cpu), ticks[cpu] != PLATFORM_NO_STEAL else { return nil }
        return ticks[cpu]
    }

    /// `ticks` of 1/USER_HZ s in nanoseconds; nil where the system does not say how long a tick is.
    package static func nanoseconds(ticks: UInt64) -> UInt64? {
        guard let perSecond = Platform.clockTicksPerSecond else { return nil }
        let (high, low) = ticks.multipliedFullWidth(by: 1_000_000_000)
        guard high < perSecond else { return nil }
        return perSecond.dividingFullWidth((high, low)).quotient
    }
}

extension Platform {
    /// USER_HZ, the ticks per second in which `/proc/stat` counts CPU time (`sysconf(_SC_CLK_TCK)`, 100 on Linux);
    /// nil where the system does not say.
    package static let clockTicksPerSecond: UInt64? = {
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        return ticks > 0 ? UInt64(ticks) : nil
    }()
}

/// Reads every CPU's steal ticks (`CPUStealTicks`) as often as asked: `/proc/stat` opened once and read again from
/// its start each time, whole, into a buffer kept between readings (grown when the file outgrows it). A reading
/// costs one system call, in which the kernel writes the whole file, interrupt counts and all, and one allocation,
/// its own array. Not thread-safe: one reader per thread of use.
package final class CPUStealReader {
    private let descriptor: Int32
    private var buffer: UnsafeMutableBufferPointer<CChar>
    /// CPUs a reading has room for: one more than the highest CPU number read so far.
    private var capacity: Int32 = 0

    /// What the buffer starts with: /proc/stat of a few CPUs with a few hundred interrupt lines fits.
    static let initialBufferBytes = 16 << 10

    /// A reader of `/proc/stat`; nil where it cannot be opened (not Linux, no procfs) or gives no CPU's line.
    package init?() {
        let descriptor = platform_cpu_steal_open()
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        buffer = .allocate(capacity: Self.initialBufferBytes)
        // Failing from here on runs deinit, which frees the buffer and closes the descriptor.
        guard read() != nil else { return nil }
    }

    deinit {
        buffer.deallocate()
        close(descriptor)
    }

    /// Every CPU's steal ticks now; nil when `/proc/stat` cannot be read.
    package func read() -> CPUStealTicks? {
        while true {
            var cpus: Int32 = 0
            var ticks = [UInt64](repeating: PLATFORM_NO_STEAL, count: Int(capacity))
            let status = ticks.withUnsafeMutableBufferPointer { ticks in
                platform_cpu_steal_read(descriptor, buffer.baseAddress, buffer.count, ticks.baseAddress, capacity,
                                        &cpus)
            }
            if status == ENOBUFS {
                let larger = UnsafeMutableBufferPointer<CChar>.allocate(capacity: buffer.count * 2)
                buffer.deallocate()
                buffer = larger
                continue
            }
            guard status == 0 else { return nil }
            // A CPU numbered beyond the ones seen so far (the first reading, or one brought online): read it too.
            guard cpus <= capacity else {
                capacity = cpus
                continue
            }
            return CPUStealTicks(ticks)
        }
    }
}

/// Reads the CPU one thread last ran on (the `processor` field of `/proc/self/task/<id>/stat`), from any thread of
/// the process, as often as asked: the file opened once and read again from its start each time. A reading costs
/// one system call and no allocation. Not thread-safe: one reader per thread of use.
package final class ThreadProcessorReader {
    private let descriptor: Int32

    /// A reader of `identity`'s thread; nil where its stat cannot be opened (not Linux, no procfs, the thread gone)
    /// or holds no `processor` field.
    package init?(_ identity: ThreadIdentity) {
        let descriptor = platform_thread_stat_open(identity.threadID)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        // Failing from here on runs deinit, which closes the descriptor.
        guard read() != nil else { return nil }
    }

    deinit {
        close(descriptor)
    }

    /// The CPU the thread last ran on, or nil when it cannot be read (the thread has ended).
    package func read() -> Int? {
        var cpu: Int32 = 0
        guard platform_thread_processor_read(descriptor, &cpu) == 0 else { return nil }
        return Int(cpu)
    }

    /// The `processor` field of `text`, the text of a thread's `stat` (`platform_thread_processor_parse`); nil when
    /// it has none. Pure: tests give it any text.
    package static func processor(inStat text: String) -> Int? {
        var text = text
        let cpu = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { platform_thread_processor_parse($0.baseAddress, $0.count) }
        }
        return cpu >= 0 ? Int(cpu) : nil
    }
}
