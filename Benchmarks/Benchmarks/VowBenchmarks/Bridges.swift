import Benchmark
import Dispatch
import Vow

// MARK: - Bridges to Swift Concurrency

func registerBridgeBenchmarks() {
    // TODO: add once `await promise.value`, `Promise { async }` and `values` land in Sources/Vow/Bridges.
}
