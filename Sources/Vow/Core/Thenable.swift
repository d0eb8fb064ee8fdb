import Dispatch

/// Something that settles later with a `Result<T>`: ``Promise`` and ``Guarantee``.
///
/// The chain methods (`then`, `map`, `done`, ...) are written once here and shared by both.
/// Every method takes `on:`, the queue its handler runs on; `nil` runs the handler synchronously
/// on the thread that settles the promise (or at once, if it already has).
public protocol Thenable: AnyObject, Sendable {
    /// The type of the value this thenable settles with.
    associatedtype T: Sendable

    /// Runs `to` with the result once settled: at once, on this thread, if it already has.
    func pipe(to: @escaping @Sendable (Result<T>) -> Void)

    /// The result, or `nil` while pending.
    var result: Result<T>? { get }

    /// `false` if reading ``result`` can be skipped because it would very likely be `nil`: the
    /// chain methods then take the path for a pending thenable, which also serves one that has
    /// settled meanwhile. Read without a lock; `true` (the default) when unsure.
    var _mayHaveSettled: Bool { get }
}

extension Thenable {
    /// `true`: unsure, so the chain methods look at ``result``.
    @inlinable
    public var _mayHaveSettled: Bool {
        true
    }
}

extension Thenable {
    /// Runs `body` with the value on `on`, then settles as the promise it returns.
    ///
    /// On rejection, `body` does not run and the returned promise is rejected with the same error.
    /// If `body` throws, or returns the very promise being built (`PMKError.returnedSelf`), the
    /// returned promise is rejected with that error.
    ///
    /// ```swift
    /// firstly { fetchUser(id) }.then { user in fetchAvatar(user) }.done { show($0) }
    /// ```
    @inlinable
    public func then<U: Thenable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) throws -> U
    ) -> Promise<U.T> {
        // Settled already and `on: nil`: the general path would run the body at once through the
        // trampoline; do the same without storing a handler, and when the returned promise has
        // settled too, make the next one settled from birth.
        if on == nil, _mayHaveSettled, let settled = result, let trampoline = Trampoline.enterIfShallow() {
            defer { trampoline.leave() }
            switch settled {
            case .fulfilled(let value):
                do {
                    let returned = try body(value)
                    if let returnedResult = returned.result {
                        // A fulfilled promise is passed on as it is: it can no longer change,
                        // and a copy would cost an allocation. (A rejected one is copied, so
                        // that the chain's end, not `returned`, answers for the rejection.)
                        if returnedResult.isFulfilled, let promise = returned as? Promise<U.T> {
                            return promise
                        }
                        return Promise(sealed: returnedResult, at: chainCreationSite)
                    }
                    let next = Promise<U.T>(pendingAt: chainCreationSite)
                    returned.pipe { next.seal($0) }
                    return next
                } catch {
                    return Promise(sealed: .rejected(error), at: chainCreationSite)
                }
            case .rejected(let error):
                return Promise(sealed: .rejected(error), at: chainCreationSite)
            }
        }
        let next = Promise<U.T>(pendingAt: chainCreationSite)
        guard on != nil else {
            // `on: nil`: run right here, without packing the work into a closure for a queue; the
            // handler captures only what it uses.
            pipe { result in
                switch result {
                case .fulfilled(let value):
                    next.adopt { try body(value) }
                case .rejected(let error):
                    next.seal(.rejected(error))
                }
            }
            return next
        }
        let dispatcher = Dispatcher(on, flags)
        pipe { result in
            switch result {
            case .fulfilled(let value):
                dispatcher.dispatch { next.adopt { try body(value) } }
            case .rejected(let error):
                next.seal(.rejected(error))
            }
        }
        return next
    }

    /// Transforms the value on `on`; a throw rejects the returned promise.
    @inlinable
    public func map<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T) throws -> U
    ) -> Promise<U> {
        // Settled already and `on: nil`: the general path would run the transform at once through
        // the trampoline; do the same without storing a handler, and make the next promise
        // settled from birth (one allocation, one lock).
        if on == nil, _mayHaveSettled, let settled = result, let trampoline = Trampoline.enterIfShallow() {
            defer { trampoline.leave() }
            switch settled {
            case .fulfilled(let value):
                do {
                    return Promise(sealed: .fulfilled(try transform(value)))
                } catch {
                    return Promise(sealed: .rejected(error), at: chainCreationSite)
                }
            case .rejected(let error):
                return Promise(sealed: .rejected(error), at: chainCreationSite)
            }
        }
        let next = Promise<U>(pendingAt: chainCreationSite)
        guard on != nil else {
            // `on: nil`: run right here, without packing the work into a closure for a queue; the
            // handler captures only what it uses.
            pipe { result in
                switch result {
                case .fulfilled(let value):
                    next.fulfill { try transform(value) }
                case .rejected(let error):
                    next.seal(.rejected(error))
                }
            }
            return next
        }
        let dispatcher = Dispatcher(on, flags)
        pipe { result in
            switch result {
            case .fulfilled(let value):
                dispatcher.dispatch { next.fulfill { try transform(value) } }
            case .rejected(let error):
                next.seal(.rejected(error))
            }
        }
        return next
    }

    /// Transforms the value on `on`; `nil` rejects with `PMKError.compactMap`.
    @inlinable
    public func compactMap<U: Sendable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ transform: @escaping @Sendable (T) throws -> U?
    ) -> Promise<U> {
        map(on: on, flags: flags, Self.compactMapping(transform))
    }

    /// `transform` as `compactMap` runs it: a `nil` result throws `PMKError.compactMap` with the
    /// value it was given. Shared by `compactMap` with and without a cancellation token.
    @inlinable
    static func compactMapping<U: Sendable>(
        _ transform: @escaping @Sendable (T) throws -> U?
    ) -> @Sendable (T) throws -> U {
        { value in
            guard let transformed = try transform(value) else {
                throw PMKError.compactMap(value, U.self)
            }
            return transformed
        }
    }

    /// Runs `body` with the value on `on` (by default `conf.Q.return`, the main queue).
    /// - Returns: A promise fulfilled with `()` after `body` returns, or rejected if it throws or
    ///   this promise was rejected.
    @inlinable
    public func done(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) throws -> Void
    ) -> Promise<Void> {
        // Written out rather than as `map(on:flags:body)`: passing `body` as a `(T) throws -> U`
        // with `U == Void` wraps it in a reabstraction thunk, an allocation on every call.
        if on == nil, _mayHaveSettled, let settled = result, let trampoline = Trampoline.enterIfShallow() {
            defer { trampoline.leave() }
            switch settled {
            case .fulfilled(let value):
                do {
                    try body(value)
                    return Promise(sealed: .fulfilled(()))
                } catch {
                    return Promise(sealed: .rejected(error), at: chainCreationSite)
                }
            case .rejected(let error):
                return Promise(sealed: .rejected(error), at: chainCreationSite)
            }
        }
        guard on != nil else {
            // `on: nil`: run right here. The returned promise holds the body, so the handler
            // captures one object and needs no allocation of its own.
            let next = DonePromise(running: body, pendingAt: chainCreationSite)
            pipe { result in next.run(with: result) }
            return next
        }
        let next = Promise<Void>(pendingAt: chainCreationSite)
        let dispatcher = Dispatcher(on, flags)
        pipe { result in
            switch result {
            case .fulfilled(let value):
                dispatcher.dispatch { next.fulfill { try body(value) } }
            case .rejected(let error):
                next.seal(.rejected(error))
            }
        }
        return next
    }

    /// Runs `body` with the value on `on`, then passes the value on unchanged.
    @inlinable
    public func get(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (T) throws -> Void
    ) -> Promise<T> {
        map(on: on, flags: flags) { value in
            try body(value)
            return value
        }
    }

    /// Runs `body` with the result (fulfilled or rejected) on `on`, then passes it on unchanged.
    @inlinable
    public func tap(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (Result<T>) -> Void
    ) -> Promise<T> {
        let dispatcher = Dispatcher(on, flags)
        let next = Promise<T>(pendingAt: chainCreationSite)
        pipe { result in
            dispatcher.dispatch {
                body(result)
                next.seal(result)
            }
        }
        return next
    }

    /// The same settlement with the value discarded.
    @inlinable
    public func asVoid() -> Promise<Void> {
        map(on: nil) { _ in }
    }
}

extension Thenable {
    /// In debug builds, where the chain this link extends began, so that reports about a link
    /// (an unhandled rejection at the end of a chain) can say where to look.
    @inlinable
    var chainCreationSite: CreationSite? {
        #if DEBUG
        return (self as? Promise<T>)?.creationSite
        #else
        return nil
        #endif
    }
}

// MARK: - Synchronous inspection

extension Thenable {
    /// The error this promise was rejected with; `nil` if pending or fulfilled.
    @inlinable
    public var error: Error? {
        guard case .rejected(let error)? = result else { return nil }
        return error
    }

    /// `true` if the promise has settled.
    @inlinable
    public var isResolved: Bool {
        result != nil
    }

    /// `true` if the promise was fulfilled.
    @inlinable
    public var isFulfilled: Bool {
        result?.isFulfilled ?? false
    }

    /// `true` if the promise was rejected.
    @inlinable
    public var isRejected: Bool {
        result?.isRejected ?? false
    }

    /// The fulfilled value; `nil` if pending or rejected.
    ///
    /// This is PromiseKit's synchronous `value`. In Vow, `value` is the `async` accessor
    /// (`try await promise.value`), so the synchronous look lives here.
    @inlinable
    public var valueIfFulfilled: T? {
        guard case .fulfilled(let value)? = result else { return nil }
        return value
    }
}
