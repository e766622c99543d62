import BenchPlatform

/// The time the hypervisor stole during a sample from the CPUs the sample's threads were on, summed over those CPUs:
/// on a virtual machine, time the host gave to something else while those virtual CPUs had work, which a sample's
/// wall time includes and its threads' time on a CPU does not.
///
/// "The CPUs the threads were on" are every CPU one of the threads was last on as the sample opened or as it closed
/// (`TeamStealReader`): a thread that moved in between may have run on others too, unseen. The kernel publishes
/// steal in ticks of 1/USER_HZ s (`CPUStealTicks`), so one sample's figure is a whole number of ticks (10 ms at
/// 100 Hz), counted at whichever CPU's tick it fell to: only an average over many samples says what a sample loses.
package struct StolenTime: Sendable, Equatable {
    /// Nanoseconds stolen, summed over the CPUs.
    package var nanoseconds: UInt64
    /// How many CPUs were summed.
    package var cpus: Int

    package init(nanoseconds: UInt64, cpus: Int) {
        self.nanoseconds = nanoseconds
        self.cpus = cpus
    }
}

/// Where a team's threads were and what had been stolen from every CPU, at one edge of a sample.
struct StealReading: Sendable {
    /// The CPU each thread was last on, in thread order.
    var processors: [Int]
    var ticks: CPUStealTicks
}

/// What was stolen over a sample, from which each row's `StolenTime` is taken for its own threads.
struct TeamSteal: Sendable {
    /// The CPU each thread was last on as the sample opened and as it closed, in thread order.
    var processors: [(opened: Int, closed: Int)]
    /// Each CPU's steal ticks between the two edges, by CPU number; nil where either edge had no figure for it.
    var ticks: [UInt64?]

    /// What was stolen from the CPUs `threads` were on (each thread's CPU at either edge, counted once); nil when
    /// one of those CPUs has no figure, or the threads none.
    func stolen(threads: [Int]) -> StolenTime? {
        var cpus = Set<Int>()
        for thread in threads {
            cpus.insert(processors[thread].opened)
            cpus.insert(processors[thread].closed)
        }
        guard !cpus.isEmpty else { return nil }
        var stolenTicks: UInt64 = 0
        for cpu in cpus {
            guard ticks.indices.contains(cpu), let stolen = ticks[cpu] else { return nil }
            stolenTicks += stolen
        }
        return CPUStealTicks.nanoseconds(ticks: stolenTicks).map { StolenTime(nanoseconds: $0, cpus: cpus.count) }
    }
}

/// Reads, at once, the CPU each thread of a team was last on and every CPU's steal, as a sample opens and as it
/// closes. Not thread-safe: the coordinator reads (a watchdog keeps a reader of its own).
final class TeamStealReader {
    private let processors: [ThreadProcessorReader]?
    private let steal: CPUStealReader?

    /// A reader of the threads with `identities`, or one that reads nothing when any of them cannot be read, or
    /// `/proc/stat` cannot (a sample then records no steal rather than a part of it).
    init(_ identities: [ThreadIdentity?]) {
        let processors = identities.compactMap { $0.flatMap(ThreadProcessorReader.init) }
        self.processors = processors.count == identities.count ? processors : nil
        steal = self.processors == nil ? nil : CPUStealReader()
    }

    /// Each thread's CPU and every CPU's steal now; nil when they cannot all be read.
    func read() -> StealReading? {
        guard let readers = processors, let steal else { return nil }
        var processors: [Int] = []
        processors.reserveCapacity(readers.count)
        for reader in readers {
            guard let cpu = reader.read() else { return nil }
            processors.append(cpu)
        }
        return steal.read().map { StealReading(processors: processors, ticks: $0) }
    }

    /// What was stolen between the readings `start` and `end` (nil when either is). A CPU's count that went back
    /// (it cannot, short of a kernel's fault) counts as no figure.
    static func difference(_ start: StealReading?, _ end: StealReading?) -> TeamSteal? {
        guard let start, let end, start.processors.count == end.processors.count else { return nil }
        let cpus = min(start.ticks.count, end.ticks.count)
        let ticks: [UInt64?] = (0..<cpus).map { cpu in
            guard let opened = start.ticks[cpu: cpu], let closed = end.ticks[cpu: cpu], closed >= opened else { return nil }
            return closed - opened
        }
        let processors = zip(start.processors, end.processors).map { (opened: $0, closed: $1) }
        return TeamSteal(processors: processors, ticks: ticks)
    }
}
