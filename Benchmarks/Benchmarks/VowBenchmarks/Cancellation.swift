import Benchmark
import Vow

// MARK: - Cancellation tokens

func registerCancellationBenchmarks() {
    // A fresh source, one handler registered, then cancelled (the handler runs).
    // Floor: allocation + lock + closure call, as for a chain link.
    Benchmark("vow: token register + cancel", configuration: .micro) { benchmark in
        for index in benchmark.scaledIterations {
            let source = CancellationTokenSource()
            source.token.register { blackHole(index) }
            source.cancel()
        }
    }

    // One long-lived source: register a handler and dispose of the registration again.
    Benchmark("vow: token register + dispose", configuration: .micro) { benchmark in
        let source = CancellationTokenSource()
        let token = source.token
        for index in benchmark.scaledIterations {
            token.register { blackHole(index) }.dispose()
        }
        blackHole(source)
    }
}
