import Benchmark
import HeapSize
import Vow

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Holding many pending promises

enum MemoryMetrics {
    /// The bytes Swift asks the allocator for, per `Promise<Int>`: its instance size.
    static let promiseInstanceBytes = BenchmarkMetric.custom("promise instance bytes", useScalingFactor: false)
    /// The bytes the heap hands out for one `Promise<Int>` (its size class, usable part).
    static let promiseHeapBytes = BenchmarkMetric.custom("promise heap bytes", useScalingFactor: false)
    /// The same for the `Resolver` that `pending()` returns beside the promise.
    static let resolverHeapBytes = BenchmarkMetric.custom("resolver heap bytes", useScalingFactor: false)
    /// The same for the `EventLoopFuture<Int>` of a pending NIO promise (the reference).
    static let nioFutureHeapBytes = BenchmarkMetric.custom("nio future heap bytes", useScalingFactor: false)
}

func registerMemoryBenchmarks() {
    var configuration = Benchmark.Configuration.wide
    configuration.maxIterations = isSmokeRun ? 1 : 5
    configuration.metrics += [
        MemoryMetrics.promiseInstanceBytes,
        MemoryMetrics.promiseHeapBytes,
        MemoryMetrics.resolverHeapBytes,
    ]

    // A million promises created with `pending()` and held with their resolvers (dropping a
    // resolver rejects its promise). Per promise: `mallocCountTotal / 1M` allocations, of which
    // one is the resolver, and the byte metrics above.
    Benchmark("vow: 1M pending promises held", configuration: configuration) { benchmark in
        var held: [(promise: Promise<Int>, resolver: Resolver<Int>)] = []
        held.reserveCapacity(Operations.held)
        benchmark.startMeasurement()
        for _ in 0..<Operations.held {
            held.append(Promise<Int>.pending())
        }
        benchmark.stopMeasurement()

        let sample = held[held.count / 2]
        benchmark.measurement(MemoryMetrics.promiseInstanceBytes, instanceSize(of: Promise<Int>.self))
        benchmark.measurement(MemoryMetrics.promiseHeapBytes, heapBytes(of: sample.promise))
        benchmark.measurement(MemoryMetrics.resolverHeapBytes, heapBytes(of: sample.resolver))
        blackHole(held)
    }
}

/// The instance size recorded in a Swift class's metadata (Linux layout, no Objective-C interop:
/// kind, superclass, flags, instance address point, then the 32-bit instance size at byte 24).
func instanceSize(of type: AnyClass) -> Int {
    #if canImport(Darwin)
    return class_getInstanceSize(type)
    #else
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    return Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
    #endif
}

