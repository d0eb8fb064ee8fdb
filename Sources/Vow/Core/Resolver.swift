/// Settles the promise it was made for, once.
///
/// A resolver is handed to the body of `Promise { seal in ... }` or returned by
/// `Promise.pending()`. The first call that settles the promise wins; later calls are ignored and
/// reported to `conf.diagnosticHandler`. If the resolver is deallocated while its promise is still
/// pending, the promise is rejected with `VowError.abandoned` as soon as anything waits on it (at
/// once if something already does), so nothing waits forever; `conf.diagnosticHandler` then
/// receives `Diagnostic.abandoned`.
// @unchecked: immutable (`let` properties only); not final, for ``CancellableResolver``, which a
// checked `Sendable` class cannot allow. Nothing outside Vow can subclass it (it is not `open`).
public class Resolver<T: Sendable>: @unchecked Sendable {
    @usableFromInline let promise: Promise<T>

    @usableFromInline
    init(_ promise: Promise<T>) {
        self.promise = promise
    }

    /// The token given to `Promise(cancellation:resolver:)`, which `onCancel(_:)` registers on;
    /// ``CancellationToken/none`` for every other resolver. Only that initializer's resolvers
    /// (a ``CancellableResolver``) store one, so that the common resolver is a 24-byte object; the
    /// body's `seal` stays a `Resolver<T>` either way, and PromiseKit code passes it on.
    @usableFromInline
    var cancellation: CancellationToken {
        .none
    }

    /// Whether the promise stays pending, unreported, when this resolver is deallocated first
    /// (`Promise(ifAbandoned: .stayPending)`); `false` for every other resolver.
    @usableFromInline
    var leavesPromisePending: Bool {
        false
    }

    deinit {
        // Nearly every resolver outlives a settled promise: answer from the box's sealed hint
        // before boxing an error (an allocation) for the rare abandoned one.
        guard !promise.box.core.isSealedHint, !leavesPromisePending else { return }
        promise.resolverDeallocated()
    }

    /// Fulfills the promise with `value`.
    @inlinable
    public final func fulfill(_ value: T) {
        resolve(.fulfilled(value))
    }

    /// Rejects the promise with `error`.
    @inlinable
    public final func reject(_ error: Error) {
        resolve(.rejected(error))
    }

    /// Settles the promise with `result`.
    @inlinable
    public final func resolve(_ result: Result<T>) {
        if !promise.seal(result) {
            reportResolvedTwice()
        }
    }

    /// Settles the promise from a Cocoa-style `(T?, Error?)` callback: the error wins; with neither
    /// value nor error the promise is rejected with `PMKError.invalidCallingConvention`.
    @inlinable
    public final func resolve(_ value: T?, _ error: Error?) {
        if let error {
            reject(error)
        } else if let value {
            fulfill(value)
        } else {
            reject(PMKError.invalidCallingConvention)
        }
    }

    /// Settles the promise from a `(T, Error?)` callback: rejected if there is an error.
    @inlinable
    public final func resolve(_ value: T, _ error: Error?) {
        if let error {
            reject(error)
        } else {
            fulfill(value)
        }
    }

    /// Settles the promise from an `(Error?, T?)` callback, as `resolve(_:_:)` with the order swapped.
    @inlinable
    public final func resolve(_ error: Error?, _ value: T?) {
        resolve(value, error)
    }

    /// Settles the promise with a standard library `Result`, whatever its error type.
    @inlinable
    public final func resolve<Failure: Error>(_ result: Swift.Result<T, Failure>) {
        resolve(Result(result))
    }

    @usableFromInline
    final func reportResolvedTwice() {
        // A producer that finishes after its token cancelled the promise is expected, not misuse.
        if cancellation.isCancellationRequested,
           case .rejected(VowError.cancelled)? = promise.box.inspectWithoutObserving() {
            return
        }
        conf.diagnosticHandler(.resolvedTwice(promise.creationSiteIfRecorded))
    }
}

extension Resolver where T == Void {
    /// Fulfills the promise.
    @inlinable
    public final func fulfill() {
        resolve(.fulfilled(()))
    }

    /// Fulfills the promise, or rejects it if `error` is not `nil`.
    @inlinable
    public final func resolve(_ error: Error?) {
        if let error {
            reject(error)
        } else {
            fulfill()
        }
    }
}

/// The resolver of `Promise(cancellation:resolver:)`: a ``Resolver`` that also holds the token its
/// `onCancel(_:)` registers on.
@usableFromInline
class CancellableResolver<T: Sendable>: Resolver<T>, @unchecked Sendable {
    // @unchecked as its superclass: immutable.
    @usableFromInline let token: CancellationToken

    @usableFromInline
    init(_ promise: Promise<T>, cancellation token: CancellationToken) {
        self.token = token
        super.init(promise)
    }

    @usableFromInline
    override var cancellation: CancellationToken {
        token
    }
}

/// The resolver of `Promise(ifAbandoned: .stayPending)` and `Promise(cancellation:ifAbandoned:
/// .stayPending)`: cancellable (by no token when none was given), and dropped unsettled, it leaves
/// its promise pending and says nothing.
final class PendingCancellableResolver<T: Sendable>: CancellableResolver<T>, @unchecked Sendable {
    // @unchecked as its superclass: immutable.
    override var leavesPromisePending: Bool {
        true
    }
}
