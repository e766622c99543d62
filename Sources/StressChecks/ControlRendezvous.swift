import BenchPlatform
import Dispatch
import Foundation

/// How a negative control waits for the partner its defect needs: a second caller inside the same window, a read
/// beside a held write. The partner is a thread the check has already started, so the wait ends as soon as the
/// scheduler runs it, at any speed of the machine. `patience` only bounds the wait where no partner exists at all
/// (a control run on one thread), so that a control never hangs its check.
package enum ControlRendezvous {
    /// Only a runnable thread kept off every processor for this long can leave a control uncaught.
    package static let patience: Double = 1

    /// Returns once `arrived()` is true (yielding the processor between looks), or false after `patience` seconds.
    @discardableResult
    package static func wait(until arrived: () -> Bool) -> Bool {
        let deadline = DispatchTime.now() + patience
        while !arrived() {
            guard DispatchTime.now() < deadline else { return false }
            Platform.yieldProcessor()
        }
        return true
    }
}
