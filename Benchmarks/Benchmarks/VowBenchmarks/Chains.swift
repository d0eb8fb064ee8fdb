import Benchmark
import Vow

// MARK: - Chain links and the life of one promise

func registerChainBenchmarks() {
    // One link on a root that has already settled: allocate the next promise, run the closure
    // right here, settle the next promise, free it. Floor: allocation + lock + closure call.
    Benchmark("vow: map, on: nil, fulfilled root", configuration: .micro) { benchmark in
        let root = opaque(Promise.value(1))
        for _ in benchmark.scaledIterations {
            blackHole(root.map(on: nil) { $0 &+ 1 })
        }
    }

    Benchmark("vow: then, on: nil, fulfilled root", configuration: .micro) { benchmark in
        let root = opaque(Promise.value(1))
        for _ in benchmark.scaledIterations {
            blackHole(root.then(on: nil) { Promise.value($0 &+ 1) })
        }
    }

    // Links attached while the root is pending, run when it is fulfilled: per link, the handler
    // is stored, then run in registration order by the fulfil.
    Benchmark("vow: map, on: nil, pending root", configuration: .micro) { benchmark in
        let (root, resolver) = Promise<Int>.pending()
        var links: [Promise<Int>] = []
        links.reserveCapacity(Operations.micro)
        for _ in benchmark.scaledIterations {
            links.append(root.map(on: nil) { $0 &+ 1 })
        }
        resolver.fulfill(1)
        blackHole(links)
    }

    Benchmark("vow: then, on: nil, pending root", configuration: .micro) { benchmark in
        let (root, resolver) = Promise<Int>.pending()
        var links: [Promise<Int>] = []
        links.reserveCapacity(Operations.micro)
        for _ in benchmark.scaledIterations {
            links.append(root.then(on: nil) { Promise.value($0 &+ 1) })
        }
        resolver.fulfill(1)
        blackHole(links)
    }

    // The same links with their handlers dispatched to a serial queue; the iteration ends when the
    // queue has run them all. Floor: `floor: queue async`.
    Benchmark("vow: map, on: queue, fulfilled root", configuration: .micro) { benchmark in
        let root = opaque(Promise.value(1))
        for _ in benchmark.scaledIterations {
            blackHole(root.map(on: floorQueue) { $0 &+ 1 })
        }
        floorQueue.sync {}
    }

    Benchmark("vow: map, on: queue, pending root", configuration: .micro) { benchmark in
        let (root, resolver) = Promise<Int>.pending()
        var links: [Promise<Int>] = []
        links.reserveCapacity(Operations.micro)
        for _ in benchmark.scaledIterations {
            links.append(root.map(on: floorQueue) { $0 &+ 1 })
        }
        resolver.fulfill(1)
        floorQueue.sync {}
        blackHole(links)
    }

    // The whole life of one promise: create it pending, observe it, fulfil it (the observer runs).
    Benchmark("vow: create, observe, fulfil one pending promise", configuration: .micro) { benchmark in
        for index in benchmark.scaledIterations {
            let (promise, resolver) = Promise<Int>.pending()
            promise.pipe { blackHole($0) }
            resolver.fulfill(index)
        }
    }

    // The same with `done(on: nil)` (the promise it returns included; nothing chained after it).
    // NIO's case: `nio: create, observe, fulfil one pending promise` (`whenSuccess`).
    Benchmark("vow: create, done, fulfil one pending promise", configuration: .micro) { benchmark in
        for index in benchmark.scaledIterations {
            let (promise, resolver) = Promise<Int>.pending()
            _ = promise.done(on: nil) { blackHole($0) }
            resolver.fulfill(index)
        }
    }

    // A million `map` links, `on: nil`, on a pending root, then the root is fulfilled: only the
    // resolution is measured (iterative, however deep). NIO's case: `nio: 1M-link chain, resolve`.
    Benchmark("vow: 1M-link chain, resolve", configuration: deepChainConfiguration) { benchmark in
        let (root, resolver) = Promise<Int>.pending()
        var last = root
        for _ in 0..<deepChainLinks {
            last = last.map(on: nil) { $0 &+ 1 }
        }
        benchmark.startMeasurement()
        resolver.fulfill(0)
        benchmark.stopMeasurement()
        precondition(last.valueIfFulfilled == deepChainLinks, "the chain did not resolve")
    }
}
