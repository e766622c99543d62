import BenchPlatform
import Foundation
import Synchronization

/// Makes every process this one starts end when this one ends, whatever ends it (SIGKILL, the OOM killer, a CI
/// runner cancelling the job): once `enable(trampoline:)` names this executable, `command(_:_:)` turns a child's
/// command into the trampoline form `bench --exec-bound-to-parent PID program args…`. That process asks the
/// kernel for SIGKILL when its parent dies (PR_SET_PDEATHSIG, which execve keeps), checks that its parent is still
/// PID (it may have died before the request), and only then becomes `program`. SIGKILL, not a signal the child
/// could handle: a child whose parent is gone must write nothing more, not even a case it was finishing.
///
/// The kernel sends the signal when the parent's *thread* that started the child ends: children are started
/// from the main thread, which lives as long as the process. Off (children start as they are) until enabled,
/// so that library code in tests starts its commands directly.
package enum ParentBinding {
    /// The first argument of the trampoline form; `bench` handles it before parsing its options.
    package static let marker = "--exec-bound-to-parent"

    private static let trampoline = Mutex<String?>(nil)

    /// Starts every later child through `path` (this executable).
    package static func enable(trampoline path: String) {
        trampoline.withLock { $0 = path }
    }

    /// What to start instead of `program arguments` (arguments after the program name): the trampoline form
    /// once enabled, else the command as it is.
    package static func command(_ program: String, _ arguments: [String]) -> (program: String, arguments: [String]) {
        guard let path = trampoline.withLock({ $0 }) else { return (program, arguments) }
        return (path, [marker, String(Platform.processID), program] + arguments)
    }
}
