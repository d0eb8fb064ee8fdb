// Runs one benchmark case a given number of times, for counting its instructions under
// `valgrind --tool=callgrind` (see `ratios.py --instructions`): the difference between a run of
// N operations and a run of none, divided by N, is what one operation costs, whatever else the
// machine is doing. ordo-one's own instruction metric needs hardware counters that virtual
// machines often lack.
//
//     VowInstructionCounts <case> <operations>

import Dispatch
import NIOCore
import NIOEmbedded
import Synchronization
import HeapSize
import Vow
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@inline(never)
func opaque<T>(_ value: T) -> T { value }

/// Keeps a value alive and opaque, like ordo-one's `blackHole`: an unoptimized callee makes the
/// caller assume the value escapes, so an allocation cannot be moved to the stack.
@_optimize(none)
func consume<T>(_ value: T) {}

final class FloorObject: @unchecked Sendable {
    var word: Int
    init(_ word: Int) { self.word = word }
}

final class FloorLock: Sendable {
    let mutex = Mutex(0)
}

/// Sync cases: name -> body running `count` operations.
let syncCases: [String: (Int) -> Void] = [
    "floor: closure call": { count in
        let increment: @Sendable (Int) -> Int = { $0 &+ 1 }
        let closure = opaque(increment)
        for index in 0..<count { consume(closure(index)) }
    },
    "floor: allocation": { count in
        for index in 0..<count { consume(FloorObject(index)) }
    },
    "floor: lock transition": { count in
        let lock = opaque(FloorLock())
        for _ in 0..<count { lock.mutex.withLock { $0 &+= 1 } }
        consume(lock)
    },
    "vow: map, on: nil, fulfilled root": { count in
        let root = opaque(Promise.value(1))
        for _ in 0..<count { consume(root.map(on: nil) { $0 &+ 1 }) }
    },
    "vow: then, on: nil, fulfilled root": { count in
        let root = opaque(Promise.value(1))
        for _ in 0..<count { consume(root.then(on: nil) { Promise.value($0 &+ 1) }) }
    },
    "vow: map, on: nil, pending root": { count in
        // 100 links per root, as a chain fans out in practice; count is a multiple of 100.
        for _ in 0..<(count / 100) {
            let (root, resolver) = Promise<Int>.pending()
            var links: [Promise<Int>] = []
            links.reserveCapacity(100)
            for _ in 0..<100 { links.append(root.map(on: nil) { $0 &+ 1 }) }
            resolver.fulfill(1)
            consume(links)
        }
    },
    "vow: then, on: nil, pending root": { count in
        for _ in 0..<(count / 100) {
            let (root, resolver) = Promise<Int>.pending()
            var links: [Promise<Int>] = []
            links.reserveCapacity(100)
            for _ in 0..<100 { links.append(root.then(on: nil) { Promise.value($0 &+ 1) }) }
            resolver.fulfill(1)
            consume(links)
        }
    },
    "vow: create, observe, fulfil one pending promise": { count in
        for index in 0..<count {
            let (promise, resolver) = Promise<Int>.pending()
            promise.pipe { consume($0) }
            resolver.fulfill(index)
        }
    },
    "vow: create, done, fulfil one pending promise": { count in
        for index in 0..<count {
            let (promise, resolver) = Promise<Int>.pending()
            _ = promise.done(on: nil) { consume($0) }
            resolver.fulfill(index)
        }
    },
    "vow: 1M-link chain, resolve": { count in
        // A million links are built in both runs, the measured run (count 1,000,000) resolves them;
        // both exit at once, so the difference is the resolution (and the freeing it allows).
        let (root, resolver) = Promise<Int>.pending()
        var last = root
        for _ in 0..<1_000_000 { last = last.map(on: nil) { $0 &+ 1 } }
        if count > 0 { resolver.fulfill(0) }
        consume(last)
        exit(0)
    },
    "nio: map, fulfilled root": { count in
        let loop = EmbeddedEventLoop()
        let root = opaque(loop.makeSucceededFuture(1))
        for _ in 0..<count { consume(root.map { $0 &+ 1 }) }
    },
    "nio: flatMap, fulfilled root": { count in
        let loop = EmbeddedEventLoop()
        let root = opaque(loop.makeSucceededFuture(1))
        for _ in 0..<count { consume(root.flatMap { loop.makeSucceededFuture($0 &+ 1) }) }
    },
    "nio: create, observe, fulfil one pending promise": { count in
        let loop = EmbeddedEventLoop()
        for index in 0..<count {
            let promise = loop.makePromise(of: Int.self)
            promise.futureResult.whenSuccess { consume($0) }
            promise.succeed(index)
        }
    },
    "nio: whenAllSucceed over 100k": { count in
        let loop = EmbeddedEventLoop()
        let futures = (0..<100_000).map { loop.makeSucceededFuture($0) }
        if count > 0 { consume(EventLoopFuture.whenAllSucceed(Array(futures.prefix(count)), on: loop)) }
        consume(futures)
    },
    "nio: 1M-link chain, resolve": { count in
        let loop = EmbeddedEventLoop()
        let root = loop.makePromise(of: Int.self)
        var last = root.futureResult
        for _ in 0..<1_000_000 { last = last.map { $0 &+ 1 } }
        if count > 0 { root.succeed(0) }
        consume(last)
        exit(0)
    },
    "vow: when(fulfilled:) over 100k": { count in
        // `count` elements; the inputs are made in both the measured and the empty run.
        let promises = (0..<100_000).map { Promise.value($0) }
        if count > 0 { consume(when(fulfilled: Array(promises.prefix(count)))) }
        consume(promises)
    },
    "vow: token register + cancel": { count in
        for index in 0..<count {
            let source = CancellationTokenSource()
            source.token.register { consume(index) }
            source.cancel()
        }
    },
]

/// Async cases, run from an async main.
let asyncCases: [String: (Int) async throws -> Void] = [
    "vow: await value, settled": { count in
        let promise = opaque(Promise.value(1))
        for _ in 0..<count { consume(try await promise.value) }
    },
    "floor: checked continuation": { count in
        for index in 0..<count {
            let value: Int = try await withCheckedThrowingContinuation { $0.resume(returning: index) }
            consume(value)
        }
    },
]

let arguments = CommandLine.arguments
// `sizes 0`: the usable heap bytes of a pending `Promise<Int>`, its `Resolver` and a pending NIO
// promise's `EventLoopFuture<Int>`, for `ratios.py --instructions`'s memory row.
if arguments.count == 3, arguments[1] == "sizes" {
    let (promise, resolver) = Promise<Int>.pending()
    let loop = EmbeddedEventLoop()
    let nioPromise = loop.makePromise(of: Int.self)
    print(heapBytes(of: promise), heapBytes(of: resolver), heapBytes(of: nioPromise.futureResult))
    resolver.fulfill(0)
    nioPromise.succeed(0)
    exit(0)
}
guard arguments.count == 3, let count = Int(arguments[2]) else {
    print("usage: VowInstructionCounts <case> <operations>; cases:")
    for name in (Array(syncCases.keys) + Array(asyncCases.keys)).sorted() { print("  \(name)") }
    exit(2)
}
if let body = syncCases[arguments[1]] {
    body(count)
} else if let body = asyncCases[arguments[1]] {
    try await body(count)
} else {
    print("unknown case: \(arguments[1])")
    exit(2)
}
