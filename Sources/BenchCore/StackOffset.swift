import CBenchSupport

/// Where a thread's stack frames fall within a 4 KiB page, drawn afresh for each thread that measures.
///
/// Linux maps a new thread's stack page-aligned, so a given frame of the measured loop lies at the same offset
/// within its page in every process of one build, while where the variant's data lies is set when the build is
/// linked. Two builds of the same code can thus keep one steady 4K-aliasing relation each (a load that seems to
/// depend on an earlier store whose address matches in its low 12 bits), and one case can run a steady few
/// percent apart between them (docs/paired-design.md#layout). The kernel already moves the main thread's stack by
/// a random amount below a page; a `StackOffset` does the same for a worker, so that the relation changes from one
/// team to the next and a layout's luck becomes variance between rounds rather than a difference between builds.
public struct StackOffset: Sendable, Equatable {
    /// How much deeper than its start the thread's frames run, a multiple of 16 bytes below 4 KiB.
    public let bytes: Int

    /// The stack alignment of the platform ABIs (x86-64 and AArch64): every offset is a multiple of it.
    public static let alignment = 16
    /// The span offsets are drawn from: one page, the reach of 4K aliasing.
    public static let span = 4096

    /// An offset of `bytes`, which must be a multiple of `alignment` below `span`.
    public init(bytes: Int) {
        precondition(bytes >= 0 && bytes < Self.span && bytes % Self.alignment == 0,
                     "a stack offset is a multiple of \(Self.alignment) bytes below \(Self.span)")
        self.bytes = bytes
    }

    /// An offset drawn uniformly from the `span / alignment` possible ones.
    public static func random() -> StackOffset {
        StackOffset(bytes: Int.random(in: 0..<(span / alignment)) * alignment)
    }

    /// Runs `body` on the calling thread with its frames `bytes` deeper than they would have been.
    public func run(_ body: () -> Void) {
        withoutActuallyEscaping(body) { body in
            var body = body
            withUnsafeMutablePointer(to: &body) { context in
                bench_call_with_stack_offset(bytes, { context in
                    context!.assumingMemoryBound(to: (() -> Void).self).pointee()
                }, context)
            }
        }
    }
}
