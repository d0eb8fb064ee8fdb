import Benchmark
import HeapSize
import NIOCore
import NIOEmbedded
import Vow

// MARK: - SwiftNIO's EventLoopFuture, the side-by-side reference

// The same workloads as the Vow cases, run on SwiftNIO's `EventLoopFuture` on an
// `EmbeddedEventLoop` (everything runs on the calling thread, as Vow's `on: nil` does).
// `ratios.py` prints each beside its Vow case. An `EmbeddedEventLoop` may only be used on the
// thread that made it, so every case makes its own loop inside its body.

/// What a callback on an `EmbeddedEventLoop` reports to the case that made the loop.
///
/// `@unchecked Sendable`: NIO's callbacks are `@Sendable`, but an `EmbeddedEventLoop` runs them on
/// the thread that made it, the only one touching `value`.
final class EmbeddedLoopCell: @unchecked Sendable {
    var value = 0
}

/// How many links the deep-chain cases build before resolving the root.
let deepChainLinks = 1_000_000

func registerNIOReferenceBenchmarks() {
    Benchmark("nio: map, fulfilled root", configuration: .micro) { benchmark in
        let loop = EmbeddedEventLoop()
        let root = opaque(loop.makeSucceededFuture(1))
        for _ in benchmark.scaledIterations {
            blackHole(root.map { $0 &+ 1 })
        }
    }

    Benchmark("nio: flatMap, fulfilled root", configuration: .micro) { benchmark in
        let loop = EmbeddedEventLoop()
        let root = opaque(loop.makeSucceededFuture(1))
        for _ in benchmark.scaledIterations {
            blackHole(root.flatMap { loop.makeSucceededFuture($0 &+ 1) })
        }
    }

    // The whole life of one promise: create it pending, observe it, fulfil it (the observer runs).
    Benchmark("nio: create, observe, fulfil one pending promise", configuration: .micro) { benchmark in
        let loop = EmbeddedEventLoop()
        for index in benchmark.scaledIterations {
            let promise = loop.makePromise(of: Int.self)
            promise.futureResult.whenSuccess { blackHole($0) }
            promise.succeed(index)
        }
    }

    // 100k succeeded futures gathered by `whenAllSucceed`; the inputs are made outside the
    // measurement. Vow's case: `vow: when(fulfilled:) over 100k`.
    Benchmark("nio: whenAllSucceed over 100k", configuration: .wide) { benchmark in
        let loop = EmbeddedEventLoop()
        let futures = (0..<Operations.wide).map { loop.makeSucceededFuture($0) }
        benchmark.startMeasurement()
        let all = EventLoopFuture.whenAllSucceed(futures, on: loop)
        let count = EmbeddedLoopCell()
        all.whenSuccess { count.value = $0.count }
        benchmark.stopMeasurement()
        precondition(count.value == Operations.wide, "whenAllSucceed did not succeed at once")
        blackHole(all)
    }

    // A million `map` links on a pending root, then the root is succeeded: only the resolution is
    // measured. Vow's case: `vow: 1M-link chain, resolve`.
    Benchmark("nio: 1M-link chain, resolve", configuration: deepChainConfiguration) { benchmark in
        let loop = EmbeddedEventLoop()
        let root = loop.makePromise(of: Int.self)
        var last = root.futureResult
        for _ in 0..<deepChainLinks {
            last = last.map { $0 &+ 1 }
        }
        let final = EmbeddedLoopCell()
        last.whenSuccess { final.value = $0 }
        benchmark.startMeasurement()
        root.succeed(0)
        benchmark.stopMeasurement()
        precondition(final.value == deepChainLinks, "the chain did not resolve")
    }

    // A million pending promises held: NIO's promise is a struct around its future, so the future
    // is the one allocation. Vow's case: `vow: 1M pending promises held`.
    var heldConfiguration = Benchmark.Configuration.wide
    heldConfiguration.maxIterations = isSmokeRun ? 1 : 5
    heldConfiguration.metrics += [MemoryMetrics.nioFutureHeapBytes]
    Benchmark("nio: 1M pending promises held", configuration: heldConfiguration) { benchmark in
        let loop = EmbeddedEventLoop()
        var held: [EventLoopPromise<Int>] = []
        held.reserveCapacity(Operations.held)
        benchmark.startMeasurement()
        for _ in 0..<Operations.held {
            held.append(loop.makePromise(of: Int.self))
        }
        benchmark.stopMeasurement()
        benchmark.measurement(MemoryMetrics.nioFutureHeapBytes, heapBytes(of: held[held.count / 2].futureResult))
        // A pending NIO promise that is dropped trips an assertion in debug builds: settle them.
        for promise in held { promise.succeed(0) }
    }
}

/// One iteration builds a million links first; a few iterations are enough.
var deepChainConfiguration: Benchmark.Configuration {
    var configuration = Benchmark.Configuration.wide
    configuration.maxIterations = isSmokeRun ? 1 : 10
    return configuration
}
