import Benchmark
import Vow

// MARK: - when(fulfilled:)

/// 100k fulfilled promises, made once by a benchmark's setup and only read by its iterations.
final class FulfilledInputs: @unchecked Sendable {
    // @unchecked: written by `setup` before any iteration runs, then only read.
    var promises: [Promise<Int>] = []

    func make() {
        promises = (0..<Operations.wide).map { Promise.value($0) }
    }
}

let fulfilledInputs = FulfilledInputs()

func registerCombinatorBenchmarks() {
    // 100k promises already fulfilled: `when` reads each result and builds the array. The inputs
    // are made once, outside the measurement. Target: <= 80 ns per element; shown beside a
    // TaskGroup gathering 100k child results (`floor: TaskGroup over 100k`).
    Benchmark("vow: when(fulfilled:) over 100k", configuration: .wide) { benchmark in
        let all = when(fulfilled: fulfilledInputs.promises)
        precondition(all.valueIfFulfilled?.count == Operations.wide, "when(fulfilled:) did not settle at once")
        blackHole(all)
    } setup: {
        fulfilledInputs.make()
    }

    // 100k pending promises: `when` attaches a handler to each, then every one is fulfilled.
    Benchmark("vow: when(fulfilled:) over 100k pending, then fulfilled", configuration: .wide) { benchmark in
        let pending = (0..<Operations.wide).map { _ in Promise<Int>.pending() }
        benchmark.startMeasurement()
        let all = when(fulfilled: pending.map(\.promise))
        for (index, entry) in pending.enumerated() {
            entry.resolver.fulfill(index)
        }
        let count = all.valueIfFulfilled?.count
        benchmark.stopMeasurement()
        precondition(count == Operations.wide, "when(fulfilled:) did not settle")
        blackHole(all)
    }
}
