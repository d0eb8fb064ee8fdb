import Dispatch

/// A value that will exist later and cannot fail.
///
/// Like a ``Promise`` that is never rejected: it has no `catch`, and its `done`, `map` and `then`
/// return guarantees. Chaining a throwing closure onto it yields a `Promise`.
///
/// ```swift
/// let (guarantee, resolve) = Guarantee<Int>.pending()
/// guarantee.done { print($0) }
/// resolve(42)
/// ```
public final class Guarantee<T: Sendable>: Thenable {
    @usableFromInline let box: Box<GuaranteeBoxFlavor<T>>

    /// A pending guarantee, settled internally by a chain link or combinator.
    @inlinable
    init(pendingAt site: CreationSite?) {
        box = Box()
    }

    @inlinable
    init(sealed value: T) {
        box = Box(sealed: value)
    }

    /// Creates a pending guarantee and runs `body` at once with the function that settles it.
    ///
    /// The first call of that function wins; later calls are ignored and reported to
    /// `conf.diagnosticHandler`. If the function is deallocated uncalled, `conf.logHandler`
    /// receives `.pendingGuaranteeDeallocated` (a guarantee cannot reject, so it stays pending).
    public init(resolver body: (@escaping @Sendable (T) -> Void) -> Void) {
        box = Box()
        let resolver = GuaranteeResolver(self)
        body { value in resolver.resolve(value) }
    }

    /// A pending guarantee and the function that settles it.
    public static func pending() -> (guarantee: Guarantee<T>, resolve: @Sendable (T) -> Void) {
        let guarantee = Guarantee(pendingAt: nil)
        let resolver = GuaranteeResolver(guarantee)
        return (guarantee, { value in resolver.resolve(value) })
    }

    /// A guarantee already settled with `value`.
    @inlinable
    public static func value(_ value: T) -> Guarantee<T> {
        Guarantee(sealed: value)
    }

    deinit {
        box.core.slotAtDeinit().destroyContents(fulfilled: T.self)
    }

    /// Runs `to` with the (always fulfilled) result once settled: at once, on this thread, if it has.
    @inlinable
    public func pipe(to: @escaping @Sendable (Result<T>) -> Void) {
        box.observe { to(.fulfilled($0)) }
    }

    /// The result, or `nil` while pending.
    @inlinable
    public var result: Result<T>? {
        box.inspect().map(Result.fulfilled)
    }

    /// `false` if this was very likely pending a moment ago, read without the lock, so that the
    /// chain methods skip a locked look at ``result`` before registering their handler.
    @inlinable
    public var _mayHaveSettled: Bool {
        box.core.mightBeSealed
    }

    /// `true` while the guarantee has not settled.
    @inlinable
    public var isPending: Bool {
        box.isPending
    }

    /// Runs `handler` with the value once settled: at once, on this thread, if it has.
    @inlinable
    func observe(_ handler: @escaping @Sendable (T) -> Void) {
        box.observe(handler)
    }

    @inlinable
    @discardableResult
    func seal(_ value: T) -> Bool {
        box.seal(value)
    }

    // MARK: - Chaining

    /// Runs `body` with the value on `on` (by default `conf.Q.return`, the main queue).
    /// - Returns: A guarantee that settles after `body` returns.
    @inlinable
    @discardableResult
    public func done(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) -> Void
    ) -> Guarantee<Void> {
        let dispatcher = Dispatcher(on, flags)
        let next = Guarantee<Void>(pendingAt: nil)
        observe { value in
            dispatcher.dispatch {
                body(value)
                next.seal(())
            }
        }
        return next
    }

    /// Runs `body` with the value on `on`, then passes the value on unchanged.
    @inlinable
    public func get(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) -> Void
    ) -> Guarantee<T> {
        map(on: on, flags: flags) { value in
            body(value)
            return value
        }
    }

    /// Transforms the value on `on` (by default `conf.Q.map`, the main queue).
    @inlinable
    public func map<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) -> U
    ) -> Guarantee<U> {
        let dispatcher = Dispatcher(on, flags)
        let next = Guarantee<U>(pendingAt: nil)
        observe { value in
            dispatcher.dispatch {
                next.seal(body(value))
            }
        }
        return next
    }

    /// Runs `body` on `on` and settles as the guarantee it returns.
    @inlinable
    @discardableResult
    public func then<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) -> Guarantee<U>
    ) -> Guarantee<U> {
        let dispatcher = Dispatcher(on, flags)
        let next = Guarantee<U>(pendingAt: nil)
        observe { value in
            dispatcher.dispatch {
                body(value).observe { next.seal($0) }
            }
        }
        return next
    }

    /// The same settlement with the value discarded.
    @inlinable
    public func asVoid() -> Guarantee<Void> {
        map(on: nil) { _ in }
    }

    /// Blocks the current thread until settled and returns the value.
    ///
    /// Never call it on the main thread while the guarantee depends on the main queue: that
    /// deadlocks (`conf.logHandler` receives `.waitOnMainThread`, first, on every call from the
    /// main thread, even when the guarantee has already settled, as in PromiseKit).
    public func wait() -> T {
        if isMainThread { conf.logHandler(.waitOnMainThread) }
        if let value = box.inspect() { return value }
        let semaphore = DispatchSemaphore(value: 0)
        observe { _ in semaphore.signal() }
        semaphore.wait()
        return box.inspect()!
    }
}

extension Guarantee where T == Void {
    /// A guarantee already settled with `()`.
    @inlinable
    public convenience init() {
        self.init(sealed: ())
    }

    /// A guarantee already settled with `()`.
    @inlinable
    public static var value: Guarantee<Void> {
        Guarantee(sealed: ())
    }
}

/// Settles a guarantee once and notices when it is dropped without settling it.
final class GuaranteeResolver<T: Sendable>: Sendable {
    let guarantee: Guarantee<T>
    /// `false` for `Guarantee(ifAbandoned: .stayPending)`, whose dropped resolver says nothing.
    let reportsAbandonment: Bool

    init(_ guarantee: Guarantee<T>, reportsAbandonment: Bool = true) {
        self.guarantee = guarantee
        self.reportsAbandonment = reportsAbandonment
    }

    func resolve(_ value: T) {
        if !guarantee.seal(value) {
            conf.diagnosticHandler(.resolvedTwice(nil))
        }
    }

    deinit {
        if reportsAbandonment, guarantee.isPending {
            conf.logHandler(.pendingGuaranteeDeallocated)
        }
    }
}
