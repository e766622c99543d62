import CBenchSupport

// Keeping results alive.
//
// The optimizer deletes work whose result is unused and hoists work whose inputs do not change out of a loop.
// A benchmark loop must therefore hand every result to `blackHole` and draw every input the compiler could
// constant-fold through `opaque`. Both are free at run time for integers and pointers: the barrier is an empty
// inline-assembly statement that the compiler must assume reads its operand.

/// Marks an integer as used, so the work that produced it cannot be deleted. Costs no instruction.
@inlinable @inline(__always)
package func blackHole(_ value: Int) {
    bench_keep_u64(UInt64(UInt(bitPattern: value)))
}

/// Marks an unsigned integer as used. Costs no instruction.
@inlinable @inline(__always)
package func blackHole(_ value: UInt64) {
    bench_keep_u64(value)
}

/// Marks a Boolean as used. Costs no instruction.
@inlinable @inline(__always)
package func blackHole(_ value: Bool) {
    bench_keep_u64(value ? 1 : 0)
}

/// Marks an object reference as used (and the memory behind it as read), without retaining it.
@inlinable @inline(__always)
package func blackHole(_ object: AnyObject) {
    bench_keep_pointer(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()))
}

/// Marks any value as used. For types other than the overloads above this is an opaque call (about a
/// nanosecond), so prefer reducing a result to an integer first in the cheapest benchmarks.
@inline(never)
package func blackHole<T>(_ value: T) {
    withUnsafePointer(to: value) { bench_keep_pointer(UnsafeRawPointer($0)) }
}

/// Returns `value` unchanged through a call the optimizer cannot see into from another module: the cost of
/// one plain function call, for the harness floor.
@inline(never)
package func opaqueIdentity(_ value: Int) -> Int {
    value
}

/// Returns `value` unchanged, but hidden from the optimizer: a constant passed through `opaque` cannot be
/// folded into the code that uses it. Call it outside the timed loop; it is an out-of-line call.
@inline(never)
package func opaque<T>(_ value: T) -> T {
    value
}
