import BenchPlatform
import Dispatch
import Foundation
import Synchronization

/// Turns Ctrl-C (SIGINT) and SIGTERM (what CI sends when it cancels a job, and `kill`'s default) into an orderly
/// stop. The first of them asks the run to stop at the next sample boundary (the case in progress is dropped,
/// completed ones are already on disk); a second one ends the process at once, but only between two writes,
/// so the CSV still holds whole rows.
final class Interruption: @unchecked Sendable {
    /// The signals that stop a run.
    static let signals: [Int32] = [SIGINT, SIGTERM]

    /// The first signal received, 0 until then.
    private let first = Atomic<Int32>(0)
    private let count = Atomic<Int>(0)
    private let sources: [DispatchSourceSignal]

    /// Installs the handlers. Both run on one serial queue, given the signal; `onSecond` should exit.
    init(onFirst: @escaping @Sendable (Int32) -> Void, onSecond: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "bench.signals")
        sources = Self.signals.map { signalNumber in
            Platform.ignoreSignal(signalNumber)
            return DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
        }
        for source in sources {
            let signalNumber = Int32(source.handle)
            source.setEventHandler { [self] in
                _ = first.compareExchange(expected: 0, desired: signalNumber, ordering: .sequentiallyConsistent)
                if count.add(1, ordering: .sequentiallyConsistent).newValue == 1 {
                    onFirst(signalNumber)
                } else {
                    onSecond(signalNumber)
                }
            }
            source.resume()
        }
    }

    /// Whether a stop has been asked for.
    var isRequested: Bool { count.load(ordering: .relaxed) > 0 }

    /// The signal that asked for the stop, nil until one did.
    var stoppingSignal: Int32? {
        let number = first.load(ordering: .sequentiallyConsistent)
        return number == 0 ? nil : number
    }

    /// `SIGINT`, `SIGTERM`.
    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }

    /// The exit status of a run the signal stopped: 128 + its number, as shells report it (130, 143).
    static func exitStatus(_ signal: Int32) -> Int32 {
        128 + signal
    }

    /// What to do to stop at once: for SIGINT, `Ctrl-C again`.
    static func again(_ signal: Int32) -> String {
        signal == SIGINT ? "Ctrl-C again" : "send \(name(signal)) again"
    }
}
