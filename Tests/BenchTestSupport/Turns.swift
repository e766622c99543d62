/// Fixtures shared by the test targets (never linked into `bench`).

/// `count` turns around `level`, each off it by a fixed, repeatable relative deviation of at most `spread`
/// (0.02 = ±2%): the same list for the same arguments, so that a test of a cost ratio built on them is exact.
package func turns(_ count: Int, around level: Double, spread: Double) -> [Double] {
    (0..<count).map { index in level * (1 + spread * Double((index * 7) % 11 - 5) / 5) }
}
