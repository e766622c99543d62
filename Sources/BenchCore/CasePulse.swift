import Synchronization

/// How far the case being measured has got, for a watchdog on another thread (`HangWatch`) that must tell a case
/// that advances, however slowly, from one that has stopped.
///
/// Two things move it: the operations the case's threads publish (a timed case's threads publish their count after
/// every batch, about a microsecond of one thread's work: `Session.timed`), and the coordinator's own steps (setup
/// returned, the team started, a run of the team returned, a window closed, a stage began). A lockstep case
/// publishes nothing while its threads run (the workload's loop is timed whole), so its finest visible step is one
/// run of the team, which calibration aims at about one sample time. Nothing in a timed region touches the pulse
/// but the counters the threads publish anyway; the coordinator's steps fall between timed regions.
///
/// Thread-safe: the coordinator steps it, the watchdog reads it.
package final class CasePulse: Sendable {
    /// What the coordinator was doing, for the report of a case that stopped making progress.
    package enum Stage: Int, Sendable, CustomStringConvertible {
        /// Building the case's state (`Benchmark.setup`) and starting its thread team.
        case setup
        /// Finding how many iterations (or how large a batch) a sample runs.
        case calibration
        /// Running the warm-up and kept samples.
        case sampling
        /// Shutting the team down and tearing the workload down.
        case teardown

        package var description: String {
            switch self {
            case .setup: "setting up"
            case .calibration: "calibrating"
            case .sampling: "sampling"
            case .teardown: "tearing down"
            }
        }
    }

    /// One look at the pulse. Both fields only grow between two looks unless something advanced in between (a
    /// team's counts start again from 0 only as it is launched, which is a step), so two equal readings mean that
    /// nothing advanced between them.
    package struct Reading: Equatable, Sendable {
        /// The coordinator's steps so far.
        package var steps: Int
        /// The operations the case's threads have published in the current launch of its team.
        package var operations: Int

        package init(steps: Int, operations: Int) {
            self.steps = steps
            self.operations = operations
        }
    }

    private let steps = Atomic<Int>(0)
    private let currentStage = Atomic<Int>(Stage.setup.rawValue)
    /// The session of the case once its team exists, and the watchdog's own readers of its threads' schedules and
    /// of what was stolen from their CPUs.
    private let attached = Mutex<Attached>(Attached())

    private struct Attached {
        /// Weak: the session holds its pulse, and ends with the case (a hung case's coordinator keeps it alive).
        weak var session: Session?
        var scheduleReader: TeamScheduleReader?
        var stealReader: TeamStealReader?
    }

    package init() {}

    /// The stage the coordinator is in.
    package var stage: Stage {
        Stage(rawValue: currentStage.load(ordering: .relaxed)) ?? .setup
    }

    /// The coordinator begins `stage`: a step too.
    package func enter(_ stage: Stage) {
        currentStage.store(stage.rawValue, ordering: .relaxed)
        step()
    }

    /// The coordinator completed a step.
    func step() {
        steps.wrappingAdd(1, ordering: .relaxed)
    }

    /// The case's session exists (its team started): from now on its threads' published operations count, and a
    /// watchdog can read where their time goes.
    func attach(_ session: Session) {
        attached.withLock { $0.session = session }
        step()
    }

    /// The workload the case's setup returned, once its team exists; nil before (or when setup never returned).
    package var workload: Workload? {
        attached.withLock { $0.session?.workload }
    }

    /// The pulse now.
    package func read() -> Reading {
        let session = attached.withLock { $0.session }
        return Reading(steps: steps.load(ordering: .relaxed), operations: session?.publishedOperations() ?? 0)
    }

    /// The pulse now, with what the process and the case's threads have used so far: a watchdog's look, from which
    /// a hung case's span is measured. Reads procfs; for the watchdog, a few times per hang timeout.
    func look() -> Look {
        let reading = read()
        let (schedules, steal) = attached.withLock { state -> ([ThreadSchedule]?, StealReading?) in
            guard let session = state.session else { return (nil, nil) }
            if state.scheduleReader == nil { state.scheduleReader = TeamScheduleReader(session.team.identities) }
            if state.stealReader == nil { state.stealReader = TeamStealReader(session.team.identities) }
            return (state.scheduleReader?.read(), state.stealReader?.read())
        }
        return Look(time: MonotonicClock.now(), reading: reading, usage: ResourceUsage.current(),
                    osThreads: OSThreadCount.current(), schedules: schedules, steal: steal)
    }

    /// One look of a watchdog: when, the pulse, and what the process and the case's threads had used by then.
    struct Look: Sendable {
        var time: UInt64
        var reading: Reading
        var usage: ResourceUsage
        var osThreads: Int?
        var schedules: [ThreadSchedule]?
        var steal: StealReading?
    }
}
