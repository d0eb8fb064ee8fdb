import Dispatch

/// The error-handling half of the chain methods, for things that can be rejected (``Promise``).
public protocol CatchMixin: Thenable {}

extension CatchMixin {
    /// Runs `body` with the error on `on` if this promise is rejected, and ends the chain.
    ///
    /// Under the default `policy` (`conf.catchPolicy`, `.allErrorsExceptCancellation`)
    /// cancellation errors are skipped. Add `finally` to the result for code that runs either way.
    @inlinable
    @discardableResult
    public func `catch`(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy,
        _ body: @escaping @Sendable (Error) -> Void
    ) -> PMKFinalizer {
        let dispatcher = Dispatcher(on, flags)
        let finalizer = PMKFinalizer()
        pipe { result in
            switch result {
            case .rejected(let error) where policy.handles(error):
                dispatcher.dispatch {
                    body(error)
                    finalizer.guarantee.seal(())
                }
            case .rejected, .fulfilled:
                finalizer.guarantee.seal(())
            }
        }
        return finalizer
    }

    /// Runs `body` with the error on `on` if this promise is rejected and settles as the promise
    /// it returns, so the chain can go on. Fulfillment passes straight through.
    ///
    /// Errors the `policy` does not handle (cancellations, by default) pass through unchanged;
    /// throw from `body` to pass an error on.
    @inlinable
    public func recover<U: Thenable>(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy,
        _ body: @escaping @Sendable (Error) throws -> U
    ) -> Promise<T> where U.T == T {
        let dispatcher = Dispatcher(on, flags)
        let next = Promise<T>(pendingAt: chainCreationSite)
        pipe { result in
            switch result {
            case .rejected(let error) where policy.handles(error):
                dispatcher.dispatch { next.adopt { try body(error) } }
            case .rejected, .fulfilled:
                next.seal(result)
            }
        }
        return next
    }

    /// Turns every error, cancellations included, into the guarantee `body` returns.
    @inlinable
    @discardableResult
    public func recover(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (Error) -> Guarantee<T>
    ) -> Guarantee<T> {
        let dispatcher = Dispatcher(on, flags)
        let next = Guarantee<T>(pendingAt: nil)
        pipe { result in
            switch result {
            case .fulfilled(let value):
                next.seal(value)
            case .rejected(let error):
                dispatcher.dispatch {
                    body(error).observe { next.seal($0) }
                }
            }
        }
        return next
    }

    /// Runs `body` on `on` once this promise settles either way, then passes the result on.
    @inlinable
    public func ensure(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable () -> Void
    ) -> Promise<T> {
        let dispatcher = Dispatcher(on, flags)
        let next = Promise<T>(pendingAt: chainCreationSite)
        pipe { result in
            dispatcher.dispatch {
                body()
                next.seal(result)
            }
        }
        return next
    }

    /// Runs `body` on `on` once this promise settles either way, waits for the guarantee it
    /// returns, then passes the original result on.
    @inlinable
    public func ensureThen(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable () -> Guarantee<Void>
    ) -> Promise<T> {
        let dispatcher = Dispatcher(on, flags)
        let next = Promise<T>(pendingAt: chainCreationSite)
        pipe { result in
            dispatcher.dispatch {
                body().observe { _ in next.seal(result) }
            }
        }
        return next
    }

    /// Ends the chain, sending its error to `conf.logHandler` as `.cauterized`. For chains whose
    /// errors are genuinely of no interest.
    ///
    /// Exactly PromiseKit's `cauterize()`: a `catch` with its defaults, so the event is logged on
    /// `conf.Q.return` (the main queue unless changed) and, under the default policy, cancellations
    /// are not logged. Add `finally` to the result for code that runs either way.
    @inlinable
    @discardableResult
    public func cauterize() -> PMKFinalizer {
        self.catch { error in
            conf.logHandler(.cauterized(error))
        }
    }
}

extension CatchMixin where T == Void {
    /// Runs `body` with any error on `on`; the chain goes on as a guarantee.
    @inlinable
    @discardableResult
    public func recover(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable (Error) -> Void
    ) -> Guarantee<Void> {
        let dispatcher = Dispatcher(on, flags)
        let next = Guarantee<Void>(pendingAt: nil)
        pipe { result in
            switch result {
            case .fulfilled:
                next.seal(())
            case .rejected(let error):
                dispatcher.dispatch {
                    body(error)
                    next.seal(())
                }
            }
        }
        return next
    }

    /// Runs `body` with errors the `policy` handles on `on`; a throw passes an error on.
    @inlinable
    public func recover(
        on: DispatchQueue? = conf.Q.map,
        flags: DispatchWorkItemFlags? = nil,
        policy: CatchPolicy = conf.catchPolicy,
        _ body: @escaping @Sendable (Error) throws -> Void
    ) -> Promise<Void> {
        let dispatcher = Dispatcher(on, flags)
        let next = Promise<Void>(pendingAt: chainCreationSite)
        pipe { result in
            switch result {
            case .rejected(let error) where policy.handles(error):
                dispatcher.dispatch {
                    do {
                        try body(error)
                        next.seal(.fulfilled(()))
                    } catch {
                        next.seal(.rejected(error))
                    }
                }
            case .rejected, .fulfilled:
                next.seal(result)
            }
        }
        return next
    }
}

/// What `catch` returns: the end of a chain, to which `finally` can be added.
public final class PMKFinalizer: Sendable {
    @usableFromInline let guarantee = Guarantee<Void>(pendingAt: nil)

    @usableFromInline init() {}

    /// Runs `body` on `on` after the chain has ended, whether it was fulfilled or its error
    /// was caught.
    public func finally(
        on: DispatchQueue? = conf.Q.return,
        flags: DispatchWorkItemFlags? = nil,
        _ body: @escaping @Sendable () -> Void
    ) {
        guarantee.done(on: on, flags: flags) { body() }
    }

    /// Ends the chain here; any error already went to the `catch` before it.
    public func cauterize() {}
}
