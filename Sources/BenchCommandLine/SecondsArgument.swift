import ArgumentParser

/// Option values given in seconds (`bench stress --duration`, `--watchdog`).
enum SecondsArgument {
    /// `text` as a number of seconds. Anything that is not a number (`ten`, `10s`) is refused with a message
    /// that says a number of seconds is expected; whether the number is in range is the option's own check.
    static func parse(_ text: String) throws -> Double {
        guard let seconds = Double(text) else {
            throw ValidationError("expected a number of seconds, such as 10 or 2.5")
        }
        return seconds
    }

    /// `(default: 60.0)`, as ArgumentParser writes a default it can show: an option parsed by `parse` has its
    /// default stated in its help text instead.
    static func defaultText(_ seconds: Double) -> String {
        "(default: \(seconds))"
    }
}
