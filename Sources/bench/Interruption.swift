import Dispatch
import Foundation
import Synchronization

/// Turns Ctrl-C into an orderly stop. The first SIGINT asks the run to stop at the next sample boundary (the
/// case in progress is dropped, completed ones are already on disk); a second one ends the process at once,
/// but only between two writes, so the CSV still holds whole rows.
final class Interruption: @unchecked Sendable {
    private let count = Atomic<Int>(0)
    private let source: DispatchSourceSignal

    /// Installs the handler. `onSecond` runs on a dispatch queue when the user insists; it should exit.
    init(onFirst: @escaping @Sendable () -> Void, onSecond: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "bench.sigint"))
        source.setEventHandler { [self] in
            if count.add(1, ordering: .sequentiallyConsistent).newValue == 1 { onFirst() } else { onSecond() }
        }
        source.resume()
    }

    /// Whether Ctrl-C has been pressed.
    var isRequested: Bool { count.load(ordering: .relaxed) > 0 }
}
