// `Promise.immediate { try await ... }` and `Guarantee.immediate { await ... }`: the bridge from
// async code into promises for synchronous code that must keep its order.
//
// `Promise { }` queues its body: code that called a promise-returning function synchronously and
// went on (`let p = load(); spinner.show()`) would see `show()` run before the body's first line
// once `load` became `async` and the call `Promise { try await load() }`. These start the body at
// once, on the calling thread, up to its first suspension, as `Task.immediate` does.

extension Promise {
    /// Creates a promise that starts `body` at once, on the calling thread, and settles with its
    /// outcome.
    ///
    /// ```swift
    /// // `load(id:)` became `async`; this caller still needs a promise and must start the
    /// // request before the code that follows it, as it did.
    /// let user = Promise.immediate { @MainActor @Sendable in try await api.load(id: 7) }
    /// spinner.show()
    /// ```
    ///
    /// The body runs synchronously, before `immediate` returns, until it first suspends, when it
    /// is isolated to the actor the caller runs on (a `@MainActor` body called on the main thread,
    /// a nonisolated body anywhere); otherwise it is queued on its actor, as `Promise { }` would.
    /// After its first suspension it goes on as any task does. The promise settles as
    /// `Promise { }`'s does: fulfilled with what the body returns, rejected with what it throws (a
    /// `CancellationError` answers `isCancelled`).
    ///
    /// Where the runtime cannot start a task at once (Apple platforms before macOS, iOS, tvOS,
    /// watchOS and visionOS 26, which lack `Task.immediate`), the body is queued as in
    /// `Promise { }`: it then starts after the caller's current work.
    ///
    /// In the Swift 6 language mode, write a `@MainActor` body that awaits
    /// `@MainActor @Sendable in` (see ``init(priority:cancellation:_:file:line:)``).
    ///
    /// - Parameters:
    ///   - priority: The task's priority; `nil` inherits the current one, as `Task` does.
    ///   - body: The async work.
    ///   - file: Where the promise is created, named in Vow's reports in debug builds; leave the default.
    ///   - line: The line of that place; leave the default.
    /// - Returns: A promise of the body's outcome.
    public static func immediate(
        priority: TaskPriority? = nil,
        _ body: sending @escaping @isolated(any) () async throws -> T,
        file: StaticString = #fileID,
        line: UInt = #line
    ) -> Promise<T> {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            let promise = Promise<T>(pendingAt: CreationSite(file: file, line: line))
            nonisolated(unsafe) let body = body
            startImmediateTask(priority: priority, isolation: actorIsolation(of: body)) { isolation in
                await promise.settle(on: isolation, running: body)
            }
            return promise
        }
        #endif
        return Promise(priority: priority, body, file: file, line: line)
    }
}

extension Guarantee {
    /// Creates a guarantee that starts `body` at once, on the calling thread, and settles with
    /// what it returns.
    ///
    /// The body runs synchronously until it first suspends where its isolation is the caller's,
    /// as in ``Promise/immediate(priority:_:file:line:)``, whose notes hold here too; where the
    /// runtime cannot start a task at once, it is queued as in `Guarantee { }`.
    ///
    /// - Parameters:
    ///   - priority: The task's priority; `nil` inherits the current one, as `Task` does.
    ///   - body: The async work.
    /// - Returns: A guarantee of what the body returns.
    public static func immediate(
        priority: TaskPriority? = nil,
        _ body: sending @escaping @isolated(any) () async -> T
    ) -> Guarantee<T> {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            let guarantee = Guarantee<T>(pendingAt: nil)
            nonisolated(unsafe) let body = body
            startImmediateTask(priority: priority, isolation: actorIsolation(of: body)) { isolation in
                await guarantee.settle(on: isolation, running: body)
            }
            return guarantee
        }
        #endif
        return Guarantee(priority: priority, body)
    }
}

#if compiler(>=6.2)
/// Starts `run`, isolated to the body's actor, with `Task.immediate`: synchronously on the calling
/// thread when that actor is the one the caller runs on (the main actor on the main thread), else
/// queued on it.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
private func startImmediateTask(
    priority: TaskPriority?,
    isolation: (any Actor)?,
    _ run: sending @escaping (isolated (any Actor)?) async -> Void
) {
    // Used once, by the task only.
    nonisolated(unsafe) let run = run
    if let isolation, isolation === MainActor.shared {
        Task.immediate(priority: priority) { @MainActor @Sendable in
            await run(MainActor.shared)
        }
        return
    }
    Task.immediate(priority: priority) {
        await run(isolation)
    }
}
#endif
