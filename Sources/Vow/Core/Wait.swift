import Dispatch

extension Promise {
    /// Blocks the current thread until settled; returns the value or throws the error.
    ///
    /// For scripts, tests and command-line tools. Never call it on the main thread while the
    /// promise depends on the main queue: that deadlocks (`conf.logHandler` receives
    /// `.waitOnMainThread`, first, on every call from the main thread, even when the promise has
    /// already settled, as in PromiseKit). In async code, use `try await promise.value` instead.
    public func wait() throws -> T {
        if isMainThread { conf.logHandler(.waitOnMainThread) }
        if let result = box.inspect() { return try result.get() }
        let semaphore = DispatchSemaphore(value: 0)
        pipe { _ in semaphore.signal() }
        semaphore.wait()
        return try box.inspect()!.get()
    }
}
