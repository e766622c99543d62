import ArgumentParser
import Foundation

/// A `--threads` list (`1,4,16`): thread counts from 1 to `maximum`, duplicates dropped, in the order given.
///
/// Parsed once, where the arguments are read (`Bench.requestedThreads` takes `init(parsing:)` as its transform), so
/// that a bad list ends the command before it runs and the run reads only counts. Its text, `description`, is the
/// list as the CSV's `run_threads` column records it.
struct ThreadList: Equatable, Sendable, CustomStringConvertible {
    /// The largest thread count accepted: far past oversubscription, short of exhausting the process.
    static let maximum = 512

    /// The counts, each in 1...`maximum`, no two equal.
    let counts: [Int]

    /// A list of counts known to be valid (the defaults): a count out of range or repeated is a programming error.
    init(_ counts: Int...) {
        precondition(counts.allSatisfy { (1...Self.maximum).contains($0) } && Set(counts).count == counts.count,
                     "thread counts must be distinct and in 1...\(Self.maximum): \(counts)")
        self.counts = counts
    }

    /// The counts in `text`, duplicates dropped, order kept; throws a message that names the bad element and what
    /// is wrong with it (ArgumentParser puts the option and the whole list before it).
    init(parsing text: String) throws {
        var counts: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            let problem: String
            if let count = Int(trimmed) {
                if (1...Self.maximum).contains(count) {
                    if !counts.contains(count) { counts.append(count) }
                    continue
                }
                problem = count < 1 ? "a case needs at least 1 thread" : "at most \(Self.maximum) threads"
            } else {
                problem = trimmed.isEmpty ? "nothing between two commas, or at an end" : "not a whole number"
            }
            throw ValidationError("'\(trimmed)' is not a thread count (\(problem)); expected comma-separated counts "
                                  + "from 1 to \(Self.maximum), like 1,2,4,8")
        }
        self.counts = counts
    }

    /// The counts, comma-separated: `1,2,4,8`.
    var description: String {
        counts.map(String.init).joined(separator: ",")
    }
}

extension ThreadList {
    /// 1, `cpus`, and twice `cpus`, duplicates dropped: one thread, every CPU busy, and oversubscribed.
    init(forCPUs cpus: Int) {
        let cpus = max(1, min(cpus, Self.maximum / 2))
        self.counts = [1, cpus, 2 * cpus].reduce(into: []) { counts, count in
            if !counts.contains(count) { counts.append(count) }
        }
    }
}
