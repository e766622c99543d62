import ArgumentParser
import Foundation

/// Parsing of `--threads 1,4,16`.
enum ThreadList {
    /// The largest thread count accepted: far past oversubscription, short of exhausting the process.
    static let maximum = 512

    /// The counts in `text`, duplicates dropped, order kept; throws a message that names the list, the bad
    /// element and what is wrong with it.
    static func parse(_ text: String) throws -> [Int] {
        var counts: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            let problem: String
            if let count = Int(trimmed) {
                if (1...maximum).contains(count) {
                    if !counts.contains(count) { counts.append(count) }
                    continue
                }
                problem = count < 1 ? "a case needs at least 1 thread" : "at most \(maximum) threads"
            } else {
                problem = trimmed.isEmpty ? "nothing between two commas, or at an end" : "not a whole number"
            }
            throw ValidationError("--threads: invalid list '\(text)': '\(trimmed)' is not a thread count (\(problem)); "
                                  + "expected comma-separated counts from 1 to \(maximum), like 1,2,4,8")
        }
        return counts
    }
}
