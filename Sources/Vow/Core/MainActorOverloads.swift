import Dispatch

/// The main queue seen as the main actor: pass `on: .main` and the handler is `@MainActor`.
///
/// In Swift 6, a handler that touches UI state must be isolated to the main actor. When a chain
/// method is given `on: .main`, Swift picks the overload taking this type, whose handler is
/// `@MainActor`, so view code compiles as it did with PromiseKit:
///
/// ```swift
/// @MainActor final class ProfileViewController {
///     var name = ""
///     func load() {
///         fetchUser().done(on: .main) { user in self.name = user.name }
///                    .catch(on: .main) { error in self.show(error) }
///     }
/// }
/// ```
///
/// Without `on:` (or with any other queue, or `nil`) the ordinary `@Sendable` handler is used and
/// `conf.Q` is respected. Handlers given this way run on the main queue, so something must drain
/// it (an app's run loop, `dispatchMain()`, or `RunLoop.main`).
public struct MainActorQueue: Sendable {
    /// The main queue, as the main actor.
    public static let main = MainActorQueue()

    @inlinable init() {}
}

extension Thenable {
    /// `then` with a `@MainActor` handler, run on the main queue.
    @inlinable
    public func then<U: Thenable>(
        on: MainActorQueue,
        _ body: @escaping @MainActor @Sendable (T) throws -> U
    ) -> Promise<U.T> {
        then(on: DispatchQueue.main) { value in
            try MainActor.assumeIsolated { try body(value) }
        }
    }

    /// `map` with a `@MainActor` transform, run on the main queue.
    @inlinable
    public func map<U: Sendable>(
        on: MainActorQueue,
        _ transform: @escaping @MainActor @Sendable (T) throws -> U
    ) -> Promise<U> {
        map(on: DispatchQueue.main) { value in
            try MainActor.assumeIsolated { try transform(value) }
        }
    }

    /// `done` with a `@MainActor` handler, run on the main queue.
    @inlinable
    public func done(
        on: MainActorQueue,
        _ body: @escaping @MainActor @Sendable (T) throws -> Void
    ) -> Promise<Void> {
        done(on: DispatchQueue.main) { value in
            try MainActor.assumeIsolated { try body(value) }
        }
    }

    /// `get` with a `@MainActor` handler, run on the main queue.
    @inlinable
    public func get(
        on: MainActorQueue,
        _ body: @escaping @MainActor @Sendable (T) throws -> Void
    ) -> Promise<T> {
        get(on: DispatchQueue.main) { value in
            try MainActor.assumeIsolated { try body(value) }
        }
    }
}

extension CatchMixin {
    /// `catch` with a `@MainActor` handler, run on the main queue.
    @inlinable
    @discardableResult
    public func `catch`(
        on: MainActorQueue,
        policy: CatchPolicy = conf.catchPolicy,
        _ body: @escaping @MainActor @Sendable (Error) -> Void
    ) -> PMKFinalizer {
        self.catch(on: DispatchQueue.main, policy: policy) { error in
            MainActor.assumeIsolated { body(error) }
        }
    }

    /// `ensure` with a `@MainActor` handler, run on the main queue.
    @inlinable
    public func ensure(
        on: MainActorQueue,
        _ body: @escaping @MainActor @Sendable () -> Void
    ) -> Promise<T> {
        ensure(on: DispatchQueue.main) {
            MainActor.assumeIsolated { body() }
        }
    }
}

extension PMKFinalizer {
    /// `finally` with a `@MainActor` handler, run on the main queue.
    public func finally(on: MainActorQueue, _ body: @escaping @MainActor @Sendable () -> Void) {
        finally(on: DispatchQueue.main) {
            MainActor.assumeIsolated { body() }
        }
    }
}

extension Guarantee {
    /// `done` with a `@MainActor` handler, run on the main queue.
    @inlinable
    @discardableResult
    public func done(
        on: MainActorQueue,
        _ body: @escaping @MainActor @Sendable (T) -> Void
    ) -> Guarantee<Void> {
        done(on: DispatchQueue.main) { value in
            MainActor.assumeIsolated { body(value) }
        }
    }

    /// `map` with a `@MainActor` transform, run on the main queue.
    @inlinable
    public func map<U: Sendable>(
        on: MainActorQueue,
        _ body: @escaping @MainActor @Sendable (T) -> U
    ) -> Guarantee<U> {
        map(on: DispatchQueue.main) { value in
            MainActor.assumeIsolated { body(value) }
        }
    }

    /// `then` with a `@MainActor` handler, run on the main queue.
    @inlinable
    @discardableResult
    public func then<U: Sendable>(
        on: MainActorQueue,
        _ body: @escaping @MainActor @Sendable (T) -> Guarantee<U>
    ) -> Guarantee<U> {
        then(on: DispatchQueue.main) { value in
            MainActor.assumeIsolated { body(value) }
        }
    }

    /// `get` with a `@MainActor` handler, run on the main queue.
    @inlinable
    public func get(
        on: MainActorQueue,
        _ body: @escaping @MainActor @Sendable (T) -> Void
    ) -> Guarantee<T> {
        get(on: DispatchQueue.main) { value in
            MainActor.assumeIsolated { body(value) }
        }
    }
}
