// snippet.fan-out
import Dispatch
import DispatchBench

struct GroupFanOut: TaskWaiter {
    func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<tasks {
            DispatchQueue.global().async(group: group) { task(index) }
        }
        group.wait()
    }
}
// snippet.end

// snippet.throttle
struct SemaphoreThrottle: TaskWaiter {
    let limit: Int

    func run(tasks: Int, _ task: @escaping @Sendable (Int) -> Void) {
        let slots = DispatchSemaphore(value: limit)
        let group = DispatchGroup()
        for index in 0..<tasks {
            slots.wait()
            DispatchQueue.global().async(group: group) {
                task(index)
                slots.signal()
            }
        }
        group.wait()
    }
}
// snippet.end

// snippet.handoff
final class SemaphorePair: Handoff {
    private let request = DispatchSemaphore(value: 0)
    private let reply = DispatchSemaphore(value: 0)

    func ping() {
        request.signal()
        reply.wait()
    }

    func pong() {
        request.wait()
        reply.signal()
    }
}
// snippet.end

// snippet.register
DispatchBench.main([
    .fanOut("group-fan-out") { GroupFanOut() },
    .throttle("my-throttle") { limit in SemaphoreThrottle(limit: limit) },
    .handoff("my-handoff") { SemaphorePair() },
])
// snippet.end
