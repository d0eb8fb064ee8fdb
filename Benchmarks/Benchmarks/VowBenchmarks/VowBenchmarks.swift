import Benchmark
import Foundation

// Every Vow case is measured beside the floor it is judged against, in the same run: the ratio
// between the two is what `ratios.py` prints and what DESIGN.md section 6 sets targets for.
//
// Names are the keys `ratios.py` looks up; rename one there too. Per-operation figures are the
// per-iteration figures divided by the operations one iteration does (`Operations` below).
//
// `VOW_BENCHMARK_SMOKE=1` runs every case for a few iterations only: CI's check that the suite
// still builds and runs, not a measurement.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .instructions, .mallocCountTotal],
        warmupIterations: isSmokeRun ? 0 : 3,
        maxDuration: isSmokeRun ? .milliseconds(100) : .seconds(2),
        maxIterations: isSmokeRun ? 3 : 100_000
    )

    registerFloorBenchmarks()
    registerChainBenchmarks()
    registerMemoryBenchmarks()
    registerCombinatorBenchmarks()
    registerBridgeBenchmarks()
    registerCancellationBenchmarks()
    registerNIOReferenceBenchmarks()
}

/// Whether this is CI's quick pass (`VOW_BENCHMARK_SMOKE` set and not `0`).
let isSmokeRun: Bool = {
    guard let value = ProcessInfo.processInfo.environment["VOW_BENCHMARK_SMOKE"] else { return false }
    return !value.isEmpty && value != "0"
}()

/// How many operations one iteration of a benchmark performs.
enum Operations {
    /// Microbenchmarks repeat their operation this often per iteration, so that reading the clock
    /// costs nothing next to it.
    static let micro = 1_000
    /// `when(fulfilled:)`, `values` and their floors work over this many promises or values.
    static let wide = 100_000
    /// The memory case holds this many pending promises at once.
    static let held = 1_000_000
}

extension Benchmark.Configuration {
    /// `Operations.micro` operations per iteration.
    static var micro: Self {
        var configuration = Benchmark.defaultConfiguration
        configuration.scalingFactor = .kilo
        return configuration
    }

    /// One wide operation (`Operations.wide` elements) per iteration; each iteration is long.
    static var wide: Self {
        var configuration = Benchmark.defaultConfiguration
        configuration.warmupIterations = isSmokeRun ? 0 : 1
        configuration.maxIterations = isSmokeRun ? 1 : 50
        return configuration
    }
}

/// Hides a value from the optimizer so that a benchmark cannot be folded away at compile time.
@inline(never)
func opaque<T>(_ value: T) -> T {
    identity(value)
}
