import BenchPlatform
import Foundation
import Testing

/// The platform's readers of steal: `/proc/stat`'s steal per CPU and a thread's `processor`, each parsed from text
/// exactly (no /proc needed); the live readers are asked only that they read something.
@Suite struct ProcStatTests {
    /// `/proc/stat` as a kernel writes it, with CPU 2 offline (a gap), CPU 4's line from a kernel without steal
    /// (seven values), CPU 5's with steal as its last value (no guest fields), and no line ending at the end.
    static let procStat = """
        cpu  1416801 13963 292374 739380 4254 0 1182 347 0 0
        cpu0 688151 6736 143618 394570 791 0 249 177 0 0
        cpu1 728649 7227 148756 344810 3463 0 932 170 0 0
        cpu3 1 2 3 4 5 6 7 42 0 0
        cpu4 1 2 3 4 5 6 7
        cpu5 1 2 3 4 5 6 7 8
        intr 44141928 0 0 0 0 0 1 1 15 0 0 0 0 2488 890 0
        ctxt 318016428
        softirq 6489416 0 903146 3 31630 749249 0 4 1441027 0 3364357
        """

    @Test func eachCPUsStealIsTheEighthValueOfItsLine() throws {
        let steal = try #require(CPUStealTicks(procStat: Self.procStat))
        #expect(steal.count == 6, "up to the highest CPU with a line")
        #expect(steal[cpu: 0] == 177 && steal[cpu: 1] == 170 && steal[cpu: 3] == 42 && steal[cpu: 5] == 8)
        #expect(steal[cpu: 2] == nil, "a gap in the numbering: an offline CPU")
        #expect(steal[cpu: 4] == nil, "a line without a steal field")
        #expect(steal[cpu: 6] == nil && steal[cpu: -1] == nil, "beyond the CPUs read")
    }

    @Test func textWithoutACPUsLineHasNoSteal() {
        #expect(CPUStealTicks(procStat: "") == nil)
        #expect(CPUStealTicks(procStat: "cpu  1 2 3 4 5 6 7 8 9 10\nintr 1 2 3\n") == nil, "the aggregate line alone")
        #expect(CPUStealTicks(procStat: "cpu0 1 2 3 4 5 6 7 8\n") != nil, "the control: one CPU's line")
    }

    /// A thread's stat line: fields 3 to 52 after its command name, the 39th (`processor`) `cpu`.
    static func statLine(command: String, processor: String = "7", fields: Int = 52) -> String {
        let after: [String] = (3...fields).map { field in
            switch field {
            case 3: "S"
            case 39: processor
            default: String(field * 11)
            }
        }
        return "4242 (\(command)) \(after.joined(separator: " "))\n"
    }

    @Test(arguments: ["bench-worker-0", "two words", "a) b (c", ") S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 (", ""])
    func theProcessorIsTheThirtyNinthFieldCountedAfterTheLastParenthesis(command: String) {
        #expect(ThreadProcessorReader.processor(inStat: Self.statLine(command: command)) == 7)
        #expect(ThreadProcessorReader.processor(inStat: Self.statLine(command: command, processor: "13")) == 13)
    }

    @Test func aStatLineWithoutAWholeProcessorFieldHasNone() {
        let line = Self.statLine(command: "x")
        #expect(ThreadProcessorReader.processor(inStat: line) == 7, "the control: the whole line")
        #expect(ThreadProcessorReader.processor(inStat: Self.statLine(command: "x", fields: 38)) == nil)
        #expect(ThreadProcessorReader.processor(inStat: Self.statLine(command: "x", processor: "-1")) == nil)
        #expect(ThreadProcessorReader.processor(inStat: line.replacingOccurrences(of: ")", with: " ")) == nil)
        // Cut off inside the field: what is left of it is no CPU number.
        let cut = Self.statLine(command: "x", processor: "12345", fields: 39).dropLast(3)
        #expect(ThreadProcessorReader.processor(inStat: String(cut)) == nil)
    }

    /// On Linux the live readers read: a thread's CPU, and a steal figure for it.
    @Test func theLiveReadersReadThisThreadsCPUAndItsSteal() throws {
        let identity = try #require(Platform.currentThreadIdentity())
        let cpu = try #require(ThreadProcessorReader(identity)?.read())
        let steal = try #require(CPUStealReader()?.read())
        #expect(steal[cpu: cpu] != nil, "CPU \(cpu), where this thread runs, is online and has a steal figure")
    }

    /// USER_HZ ticks in nanoseconds: 10 ms a tick at Linux's 100.
    @Test func aTickIsAHundredthOfASecondOnLinux() {
        #expect(Platform.clockTicksPerSecond == 100)
        #expect(CPUStealTicks.nanoseconds(ticks: 3) == 30_000_000)
    }
}
