import Benchmark
import Vow

// MARK: - when(fulfilled:)

func registerCombinatorBenchmarks() {
    // TODO: add once `when(fulfilled:)` lands in Sources/Vow/Combinators.
}
