import Dispatch

/// Runs `body` at once, on this thread, and settles as the thenable it returns; a throw rejects.
///
/// Only for readability: it lines up the first step of a chain with the others.
///
/// ```swift
/// firstly {
///     fetchUser(id)
/// }.then { user in
///     fetchAvatar(user)
/// }.done { avatar in
///     show(avatar)
/// }
/// ```
@inlinable
public func firstly<U: Thenable>(execute body: () throws -> U) -> Promise<U.T> {
    do {
        let first = try body()
        let promise = Promise<U.T>(pendingAt: nil)
        first.pipe { promise.seal($0) }
        return promise
    } catch {
        return Promise(error: error)
    }
}

/// Runs `body` at once, on this thread, and returns the guarantee it returns.
@inlinable
public func firstly<T>(execute body: () -> Guarantee<T>) -> Guarantee<T> {
    body()
}

/// Runs `body` on `on` and settles as the thenable it returns; a throw rejects.
@inlinable
public func firstly<U: Thenable>(
    on: DispatchQueue,
    flags: DispatchWorkItemFlags? = nil,
    execute body: @escaping @Sendable () throws -> U
) -> Promise<U.T> {
    let promise = Promise<U.T>(pendingAt: nil)
    Dispatcher(on, flags).dispatch {
        do {
            try body().pipe { promise.seal($0) }
        } catch {
            promise.seal(.rejected(error))
        }
    }
    return promise
}

/// Runs `body` on `on` and settles as the guarantee it returns.
@inlinable
public func firstly<T>(
    on: DispatchQueue,
    flags: DispatchWorkItemFlags? = nil,
    execute body: @escaping @Sendable () -> Guarantee<T>
) -> Guarantee<T> {
    let guarantee = Guarantee<T>(pendingAt: nil)
    Dispatcher(on, flags).dispatch {
        body().observe { guarantee.seal($0) }
    }
    return guarantee
}
