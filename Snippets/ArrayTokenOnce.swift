import DispatchBench
import Foundation

final class ArrayTokenOnce: OnceTable, @unchecked Sendable {
    private let lock = NSLock()
    private var tokens: [String] = []

    static func makeTable(tokens: Int) -> ArrayTokenOnce { ArrayTokenOnce() }

    func once(token: String, block: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard !tokens.contains(token) else { return }
        tokens.append(token)
        block()
    }
}

DispatchBench.main([
    .once("array-token-once", ArrayTokenOnce.self),
])
