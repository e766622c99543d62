import Foundation

/// The CPUs the calling thread may run on, from the kernel's `Cpus_allowed_list` ("0-1", "3", "0,2-3"); empty
/// where /proc does not say.
package func allowedCPUs() -> [Int] {
    let status = (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)) ?? ""
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else {
        return []
    }
    return line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
        .split(separator: ",").flatMap { range -> [Int] in
            let ends = range.split(separator: "-").compactMap { Int($0) }
            return ends.count == 2 ? Array(ends[0]...ends[1]) : ends
        }
}
