import Foundation

/// Runs blocking `body` on a new thread of its own and resumes the caller with its result.
///
/// On Linux, Swift concurrency's global executor runs on GCD's default-QoS root queue, which is as wide as the
/// machine has cores (two here) and does not grow when its threads block. An async caller that blocked its own
/// thread (waiting on a semaphore, a group, a child process, or running a long sample) would hold one of those
/// threads and starve every task in the process, the actor calls of the isolation checks among them. Every test
/// or tool that blocks from an async context goes through here instead.
package func onPlainThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        start { continuation.resume(returning: body()) }
    }
}

/// `onPlainThread` for a body that throws: the error is rethrown to the caller.
package func onPlainThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        start { continuation.resume(with: Result { try body() }) }
    }
}

private func start(_ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.stackSize = 1 << 20
    thread.start()
}
