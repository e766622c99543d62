import BenchCore
import Foundation
import Testing

/// A `StackOffset` moves the frames of what it runs by exactly its bytes, and a `ThreadTeam`'s threads run their
/// jobs at their own offsets: without them, every thread's job would find its frames at one place within a page.
@Suite struct StackOffsetTests {
    /// The address of a local of a frame called from the caller: where the caller's callees' frames lie.
    @inline(never) static func frameAddress() -> Int {
        var local = 0
        return withUnsafeMutablePointer(to: &local) { Int(bitPattern: $0) }
    }

    static func frameAddress(at offset: StackOffset) -> Int {
        var address = 0
        offset.run { address = frameAddress() }
        return address
    }

    @Test func framesRunDeeperByTheOffset() {
        let unmoved = Self.frameAddress(at: StackOffset(bytes: 0))
        for bytes in [16, 1024, 4080] {
            #expect(unmoved - Self.frameAddress(at: StackOffset(bytes: bytes)) == bytes, "offset \(bytes)")
        }
    }

    @Test func randomOffsetsAreAlignedWithinAPage() {
        let offsets = (0..<1000).map { _ in StackOffset.random().bytes }
        #expect(offsets.allSatisfy { $0 >= 0 && $0 < StackOffset.span && $0 % StackOffset.alignment == 0 })
        // 1,000 draws from 256 values: fewer than 100 distinct ones would mean the draw is not uniform.
        #expect(Set(offsets).count > 100)
    }

    @Test func eachThreadOfATeamRunsItsJobsAtItsOwnOffset() {
        final class Seen: @unchecked Sendable {
            let lock = NSLock()
            var addresses: [Int]
            init(count: Int) { addresses = Array(repeating: 0, count: count) }
        }
        let team = ThreadTeam(count: 8)
        defer { team.shutdown() }
        let seen = Seen(count: team.count)
        team.run { index in
            let address = Self.frameAddress()
            seen.lock.withLock { seen.addresses[index] = address }
        }
        let withinPage = seen.lock.withLock { seen.addresses }.map { $0 & (StackOffset.span - 1) }
        // Each thread's stack starts at one place within a page; its offset alone moves its frames from there.
        let unmoved = zip(withinPage, team.offsets).map { ($0 + $1.bytes) & (StackOffset.span - 1) }
        #expect(Set(unmoved).count == 1, "\(withinPage) with offsets \(team.offsets.map(\.bytes))")
        #expect(Set(withinPage).count > 1, "the threads' frames lie at one place within a page: \(withinPage)")
    }
}
