import ArgumentParser
import Foundation

/// The process entry point: runs the `bench` command and turns every error into one line on stderr and a
/// non-zero exit, never a trap or a usage dump.
@main
enum BenchMain {
    static func main() {
        do {
            var command = try Bench.parseAsRoot()
            try command.run()
        } catch {
            let code = Bench.exitCode(for: error)
            if code == .success {
                // --help and friends arrive as "errors" that exit 0.
                print(Bench.fullMessage(for: error))
                exit(0)
            }
            let message = Bench.message(for: error)
            if !message.isEmpty {
                FileHandle.standardError.write(Data("bench: error: \(message)\n".utf8))
            }
            exit(code.rawValue)
        }
    }
}
