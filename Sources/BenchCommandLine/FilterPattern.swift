import ArgumentParser
import Foundation

/// The `--filter` of `bench` and `bench stress` as a regular expression, or the reason it is not one.
enum FilterPattern {
    /// `filter` compiled as `NSRegularExpression` (ICU syntax, as the filter has always been matched). When it
    /// does not compile, throws a ValidationError that says why in the words of Swift's own regex parser
    /// (`expected ')'`), since Foundation's error on Linux says only "The value is invalid".
    static func regex(_ filter: String) throws -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: filter)
        } catch {
            throw ValidationError("--filter: '\(filter)' is not a valid regular expression"
                                  + (reason(filter).map { ": \($0)" } ?? ""))
        }
    }

    /// Why Swift's regex parser refuses `pattern` (`expected ')'`), or nil when it accepts it (its dialect and
    /// ICU's differ at the edges).
    static func reason(_ pattern: String) -> String? {
        do {
            _ = try Regex(pattern)
            return nil
        } catch {
            return "\(error)"
        }
    }
}
