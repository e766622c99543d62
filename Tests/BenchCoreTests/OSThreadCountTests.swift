import BenchCore
import Foundation
import Testing

@Suite struct OSThreadCountTests {
    /// The count agrees with the kernel's own `Threads:` line of /proc/self/status (`.` and `..` are not
    /// threads). Other tests start and end threads meanwhile, so a reading counts only when the count did not
    /// change around it.
    @Test func agreesWithTheKernelsThreadCount() throws {
        func kernelCount() -> Int? {
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
            return line.flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) }
        }
        var agreed = false
        for _ in 0..<50 where !agreed {
            let before = try #require(OSThreadCount.current(), "Linux has /proc/self/task")
            let kernel = try #require(kernelCount())
            let after = OSThreadCount.current()
            if before == after { agreed = before == kernel }
        }
        #expect(agreed)
    }
}
