/// How long and how often each case is sampled.
package struct MeasurementSettings: Sendable, Equatable {
    /// The least wall time one sample lasts, in nanoseconds: long enough that two clock reads vanish in it.
    package var sampleNanoseconds: UInt64
    /// Samples kept per case (in each round of a `bench --rounds` run).
    package var samples: Int
    /// Samples run and discarded before the kept ones (caches, branch predictors, lazily built state).
    package var warmupSamples: Int

    package init(sampleNanoseconds: UInt64, samples: Int, warmupSamples: Int) {
        precondition(sampleNanoseconds > 0 && samples > 0 && warmupSamples >= 0, "invalid measurement settings")
        self.sampleNanoseconds = sampleNanoseconds
        self.samples = samples
        self.warmupSamples = warmupSamples
    }

    /// 1 sample of at least 8 ms after 1 warm-up sample: one round of a default run (5 to 10 rounds a case; why:
    /// docs/running.md, "What a run does").
    package static let standard = MeasurementSettings(sampleNanoseconds: 8_000_000, samples: 1, warmupSamples: 1)
    /// A smoke run's round: 1 sample of at least 2 ms after 1 warm-up sample (two rounds in all).
    package static let quick = MeasurementSettings(sampleNanoseconds: 2_000_000, samples: 1, warmupSamples: 1)
}
