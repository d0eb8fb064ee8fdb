import Dispatch

/// The main queue seen as the main actor: handlers given `on: .mainActor` are `@MainActor`.
///
/// In Swift 6 a handler that touches UI state must be isolated to the main actor, which an
/// ordinary `@Sendable` handler is not, even on the main queue. Every chain method has an overload
/// taking `on: .mainActor` whose handler is `@MainActor`; it runs on the main queue:
///
/// ```swift
/// @MainActor final class ProfileScreen {
///     var title = ""
///     func load() {
///         fetchUser(id: 1)
///             .map(on: .mainActor) { user in user.name }
///             .done { @MainActor name in self.title = name }
///             .catch(on: .mainActor) { error in self.title = "\(error)" }
///     }
/// }
/// ```
///
/// The methods that end a chain (`done`, `catch`, `ensure`, `finally`) also pick the `@MainActor`
/// overload by themselves for a closure written `{ @MainActor in ... }`. The links in the middle
/// (`then`, `map`, `get`) need `on: .mainActor` spelled out: giving them a default as well would
/// double the overloads Swift weighs at every link, and long chains would stop type-checking in
/// reasonable time. `on: .main` (a `DispatchQueue`) and the default `conf.Q` keep PromiseKit's
/// ordinary `@Sendable` handlers. Something must drain the main queue: an app's run loop,
/// `dispatchMain()`, or `RunLoop.main`.
public struct MainActorQueue: Sendable {
    /// The main queue, as the main actor.
    public static let mainActor = MainActorQueue()

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
        on: MainActorQueue = .mainActor,
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
        on: MainActorQueue = .mainActor,
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
        on: MainActorQueue = .mainActor,
        _ body: @escaping @MainActor @Sendable () -> Void
    ) -> Promise<T> {
        ensure(on: DispatchQueue.main) {
            MainActor.assumeIsolated { body() }
        }
    }
}

extension PMKFinalizer {
    /// `finally` with a `@MainActor` handler, run on the main queue.
    public func finally(on: MainActorQueue = .mainActor, _ body: @escaping @MainActor @Sendable () -> Void) {
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
        on: MainActorQueue = .mainActor,
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
