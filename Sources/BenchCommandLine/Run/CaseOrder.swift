/// The order a round measures its cases in: shuffled by the run's seed and the round's number, so that no case
/// always runs first, or always right after the same neighbour, and a run can be repeated in the same order
/// with `--seed` (by the same binary: Swift does not promise `shuffled(using:)` across versions).
enum CaseOrder {
    /// `cases` shuffled for round `round` of the run seeded with `seed`.
    static func shuffled<Element>(_ cases: [Element], seed: UInt64, round: Int) -> [Element] {
        var generator = SplitMix64(state: seed ^ (UInt64(round) &* 0x9E37_79B9_7F4A_7C15))
        return cases.shuffled(using: &generator)
    }

    /// A new random seed, never 0 (so that a seed is always visibly set).
    static func randomSeed() -> UInt64 {
        UInt64.random(in: 1...UInt64.max)
    }
}

/// Steele, Lea and Flood's SplitMix64: a tiny, fast generator whose sequence is fixed by its seed, which the
/// standard library's `SystemRandomNumberGenerator` cannot be.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
