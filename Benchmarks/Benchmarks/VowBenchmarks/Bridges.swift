import Benchmark
import Dispatch
import Vow

// MARK: - Bridges to Swift Concurrency

func registerBridgeBenchmarks() {
    // Settled: no continuation, one lock read. Floor: `floor: lock transition`.
    Benchmark("vow: await value, settled", configuration: .micro) { benchmark in
        let promise = opaque(Promise.value(1))
        for _ in benchmark.scaledIterations {
            blackHole(try await promise.value)
        }
    }

    // Pending: nothing on the awaiting thread can settle the promise while its task is suspended,
    // so a serial queue fulfils it, as it resumes the continuation in the floor
    // `floor: checked continuation in cancellation handler, resumed by a queue`.
    Benchmark("vow: await value, pending, sealed by a queue", configuration: .micro) { benchmark in
        for index in benchmark.scaledIterations {
            let (promise, resolver) = Promise<Int>.pending()
            floorQueue.async { resolver.fulfill(index) }
            blackHole(try await promise.value)
        }
    }

    // The body runs in a Task owned by the promise. Floor: `floor: Task + await`.
    Benchmark("vow: Promise { async } + await value", configuration: .micro) { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(try await Promise { index }.value)
        }
    }

    // 100k fulfilled promises read as an AsyncSequence of values (completion order).
    // The promises are made once, outside the measurement. Floor: `floor: AsyncStream over 100k`.
    Benchmark("vow: values over 100k", configuration: .wide) { benchmark in
        var sum = 0
        for try await value in fulfilledInputs.promises.values { sum &+= value }
        blackHole(sum)
    } setup: {
        fulfilledInputs.make()
    }
}
