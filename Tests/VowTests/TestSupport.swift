import Dispatch
import Foundation
import XCTest
@testable import Vow

/// A thread-safe list that tests append to from handlers running anywhere.
final class Recorder<Element: Sendable>: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var storage: [Element] = []

    func append(_ element: Element) {
        lock.lock(); defer { lock.unlock() }
        storage.append(element)
    }

    var elements: [Element] {
        lock.lock(); defer { lock.unlock() }
        return storage
    }

    var count: Int { elements.count }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = 0

    @discardableResult
    func increment() -> Int {
        lock.lock(); defer { lock.unlock() }
        storage += 1
        return storage
    }

    var value: Int {
        lock.lock(); defer { lock.unlock() }
        return storage
    }
}

struct TestError: Error, Equatable {
    var code = 0
}

/// Runs `body` with `conf`'s hooks saved and restored, so tests can replace them.
func withConfiguration(_ body: () throws -> Void) rethrows {
    let queues = conf.Q
    let policy = conf.catchPolicy
    let log = conf.logHandler
    let diagnostic = conf.diagnosticHandler
    let unhandled = conf.unhandledRejectionHandler
    defer {
        conf.Q = queues
        conf.catchPolicy = policy
        conf.logHandler = log
        conf.diagnosticHandler = diagnostic
        conf.unhandledRejectionHandler = unhandled
    }
    try body()
}

/// A label that the current queue carries, to prove where a handler ran.
let queueLabelKey = DispatchSpecificKey<String>()

func makeLabelledQueue(_ label: String) -> DispatchQueue {
    let queue = DispatchQueue(label: label)
    queue.setSpecific(key: queueLabelKey, value: label)
    return queue
}

var currentQueueLabel: String? {
    DispatchQueue.getSpecific(key: queueLabelKey)
}

/// A pthread identity that can be compared across threads.
var currentThreadID: UInt {
    UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self()))))
}
