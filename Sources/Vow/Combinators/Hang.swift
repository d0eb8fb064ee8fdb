#if canImport(Foundation)
import Dispatch
import Foundation

/// Runs the current thread's run loop until `promise` settles, then returns its value or throws
/// its error.
///
/// For command-line tools, scripts and tests. Unlike `wait()`, which blocks the thread, `hang`
/// keeps the run loop going: on the main thread the main queue is drained meanwhile, so a chain
/// whose handlers run on the main queue (the default `conf.Q`) still completes.
///
/// ```swift
/// // main.swift of a command-line tool
/// let report = try hang(fetchReport())
/// ```
///
/// On the main thread, settling wakes the run loop at once. Other threads' run loops cannot be
/// woken from outside through Foundation, so there the run loop runs in slices of a few
/// milliseconds until the promise has settled.
public func hang<T>(_ promise: Promise<T>) throws -> T {
    if promise.isPending {
        let settled = DispatchSemaphore(value: 0)
        let onMainThread = Thread.isMainThread
        promise.pipe { _ in
            settled.signal()
            if onMainThread {
                // The main run loop drains the main queue, so this wakes it.
                DispatchQueue.main.async {}
            }
        }
        let runLoop = RunLoop.current
        while promise.isPending {
            if onMainThread {
                if !runLoop.run(mode: .default, before: .distantFuture) {
                    // Nothing can run on this run loop; sleep until settled (or look again soon).
                    _ = settled.wait(timeout: .now() + .milliseconds(5))
                }
            } else {
                _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.005))
                _ = settled.wait(timeout: .now() + .milliseconds(1))
            }
        }
    }
    guard let result = promise.result else {
        preconditionFailure("Vow: hang(_:) returned while its promise was pending")
    }
    return try result.get()
}
#endif
