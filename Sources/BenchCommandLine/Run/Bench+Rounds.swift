import ArgumentParser
import BenchCore
import BenchPlatform
import BenchResults
import Foundation
import Synchronization

extension Bench {
    /// Runs `roundCount` rounds, each a fresh `bench --round K` process measuring every selected case, one after
    /// the other, all appending to one file under one run environment and one seed. Measures nothing itself.
    ///
    /// Ctrl-C and SIGTERM are passed on to the round in progress (which stops as a single run does: after the
    /// current sample, or at once on the second signal) and no further round starts.
    func measureInRounds(cases: [BenchmarkCase]) throws {
        if let note = PlatformFeature.separateRounds.unavailableNote { throw BenchError(note) }
        let caseCount = cases.count
        let environment = RunEnvironment.current(benchVersion: BenchVersion.current)
        let seed = self.seed ?? CaseOrder.randomSeed()
        var settings = try runSettings()
        settings.rounds = roundCount
        settings.seed = String(seed)
        // The file is named (and reserved, empty) here; the rounds append to it.
        let writer = try resultsWriter(environment, settings)
        // The rounds read the run environment from a file in memory, not on disk: it ends with the last process
        // holding it, so that even a killed run leaves no temporary file behind.
        let environmentFile: FileDescriptor
        do {
            environmentFile = try FileDescriptor.anonymousFile(named: "bench-run-\(environment.runID).json")
        } catch {
            throw BenchError("cannot create the run environment file in memory: \(error)",
                             exitCode: ExitStatus.internalError)
        }
        defer { environmentFile.close() }
        FileHandle(fileDescriptor: environmentFile.rawValue, closeOnDealloc: false)
            .write(try JSONEncoder().encode(environment))
        let environmentPath = "/dev/fd/\(environmentFile.rawValue)"

        let current = Mutex<RoundProcess?>(nil)
        let interruption = Interruption(
            onFirst: { signal in
                warn("\(Interruption.name(signal)): stopping after the current sample of this round "
                     + "(\(Interruption.again(signal)) to stop at once)")
                current.withLock { $0?.signal(signal) }
            },
            onSecond: { signal in current.withLock { $0?.signal(signal) } }
        )
        warn("\(ProgramName.current): \(plural(roundCount, "round")) of \(plural(caseCount, "case")), "
             + "each a fresh process, seed \(seed), writing \(writer.path)")
        let arguments = Array(CommandLine.arguments.dropFirst()) + [
            "--rounds", String(roundCount), "--seed", String(seed), "--run-environment", environmentPath,
            "--output", writer.path,
        ]
        for round in 1...roundCount {
            if let signal = interruption.stoppingSignal { try stopped(by: signal, path: writer.path, after: round - 1) }
            let process = try current.withLock { process in
                let started = try RoundProcess(executable: BenchMain.executable,
                                               arguments: arguments + ["--round", String(round)])
                process = started
                return started
            }
            let status = process.wait()
            current.withLock { $0 = nil }
            if status == Interruption.exitStatus(SIGINT) || status == Interruption.exitStatus(SIGTERM) {
                try stopped(by: status - 128, path: writer.path, after: round - 1)
            }
            guard status == ExitStatus.success else {
                throw BenchError("round \(round) of \(roundCount) failed (exit status \(status), above); "
                                 + kept(path: writer.path, rounds: round - 1), exitCode: status)
            }
        }
        let csv = try String(contentsOfFile: writer.path, encoding: .utf8)
        print(try RunSummary.render(csv: csv, order: cases, logicalCPUs: environment.logicalCPUs))
        printWhatWasWritten(writer.path, "\(plural(roundCount, "round")) of \(plural(caseCount, "case")), seed \(seed)")
    }

    /// Ends a run of rounds that a signal stopped, with the signal's exit status.
    private func stopped(by signal: Int32, path: String, after completedRounds: Int) throws -> Never {
        warn("stopped by \(Interruption.name(signal)): " + kept(path: path, rounds: completedRounds))
        throw ExitCode(Interruption.exitStatus(signal))
    }

    /// What the file holds after `rounds` whole rounds (and the whole cases of the one that stopped); removes it
    /// when it holds nothing.
    func kept(path: String, rounds: Int) -> String {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard let size, size > 0 else {
            try? FileManager.default.removeItem(atPath: path)
            return "no case completed, so no file was left"
        }
        let whole = rounds == 0 ? "" : rounds == 1 ? "the rows of round 1 and " : "the rows of rounds 1–\(rounds) and "
        return "\(path) holds \(whole)the cases round \(rounds + 1) completed"
    }
}
