import Benchmark
import Dispatch
import Synchronization

// MARK: - Floors: what the language and runtime cost for the same work, measured in this run

/// The smallest heap object that holds a word: what one allocation costs, alloc and free.
final class FloorObject: @unchecked Sendable {
    var word: Int
    init(_ word: Int) { self.word = word }
}

/// A mutex of the kind the engine uses on Linux, in a class so a closure can share it.
final class FloorLock: Sendable {
    let mutex = Mutex(0)
}

/// A serial queue shared by the `on: queue` cases and their floor.
let floorQueue = DispatchQueue(label: "vow.benchmarks.queue")

func registerFloorBenchmarks() {
    Benchmark("floor: closure call", configuration: .micro) { benchmark in
        let increment: @Sendable (Int) -> Int = { $0 &+ 1 }
        let closure = opaque(increment)
        for index in benchmark.scaledIterations {
            blackHole(closure(index))
        }
    }

    Benchmark("floor: allocation", configuration: .micro) { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(FloorObject(index))
        }
    }

    Benchmark("floor: lock transition", configuration: .micro) { benchmark in
        let lock = opaque(FloorLock())
        for _ in benchmark.scaledIterations {
            lock.mutex.withLock { $0 &+= 1 }
        }
        blackHole(lock)
    }

    Benchmark("floor: queue async", configuration: .micro) { benchmark in
        let work: @Sendable () -> Void = { blackHole(1) }
        let closure = opaque(work)
        for _ in benchmark.scaledIterations {
            floorQueue.async(execute: closure)
        }
        floorQueue.sync {}
    }

    Benchmark("floor: checked continuation", configuration: .micro) { benchmark in
        for index in benchmark.scaledIterations {
            let value: Int = try await withCheckedThrowingContinuation { continuation in
                continuation.resume(returning: index)
            }
            blackHole(value)
        }
    }

    Benchmark("floor: checked continuation in cancellation handler", configuration: .micro) { benchmark in
        for index in benchmark.scaledIterations {
            let value: Int = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    continuation.resume(returning: index)
                }
            } onCancel: {
                blackHole(index)
            }
            blackHole(value)
        }
    }

    // The pending `await` case is resumed by another thread (nothing on the awaiting thread can
    // settle a promise while its task is suspended), so its floor is resumed the same way.
    Benchmark("floor: checked continuation in cancellation handler, resumed by a queue", configuration: .micro) { benchmark in
        for index in benchmark.scaledIterations {
            let value: Int = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    floorQueue.async { continuation.resume(returning: index) }
                }
            } onCancel: {
                blackHole(index)
            }
            blackHole(value)
        }
    }

    Benchmark("floor: Task + await", configuration: .micro) { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(await Task { index }.value)
        }
    }

    Benchmark("floor: TaskGroup over 100k", configuration: .wide) { benchmark in
        let sum = await withTaskGroup(of: Int.self) { group in
            for index in 0..<Operations.wide {
                group.addTask { index }
            }
            var sum = 0
            for await value in group { sum &+= value }
            return sum
        }
        blackHole(sum)
    }

    Benchmark("floor: AsyncStream over 100k", configuration: .wide) { benchmark in
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
        for index in 0..<Operations.wide {
            continuation.yield(index)
        }
        continuation.finish()
        var sum = 0
        for await value in stream { sum &+= value }
        blackHole(sum)
    }
}
