package overlay

// BenchSeedAt is benchSeedAt, for the external tests: BenchSeed on a small frame.
var BenchSeedAt = benchSeedAt
