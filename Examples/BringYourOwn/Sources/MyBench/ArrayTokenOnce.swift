import DispatchBench
import Foundation

/// A homemade once in the style of seed 000's `DispatchQueue.once(token:)`: the tokens whose blocks have run, in
/// an array behind a lock. The check, the registration and the block all run under the lock, so it is correct;
/// the question is what the array's linear search costs as tokens accumulate (`once/hit` sweeps their number).
final class ArrayTokenOnce: OnceTable, @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: [String] = []

    static func makeTable(tokens: Int) -> ArrayTokenOnce {
        ArrayTokenOnce()
    }

    func once(token: String, block: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard !tokens.contains(token) else { return }
        tokens.append(token)
        block()
    }
}
