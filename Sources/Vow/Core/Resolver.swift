/// Settles the promise it was made for, once.
///
/// A resolver is handed to the body of `Promise { seal in ... }` or returned by
/// `Promise.pending()`. The first call that settles the promise wins; later calls are ignored and
/// reported to `conf.diagnosticHandler`. If the resolver is deallocated while its promise is still
/// pending, the promise is rejected with `VowError.abandoned` as soon as anything waits on it (at
/// once if something already does), so nothing waits forever; `conf.diagnosticHandler` then
/// receives `Diagnostic.abandoned`.
public final class Resolver<T: Sendable>: Sendable {
    @usableFromInline let promise: Promise<T>
    /// The token given to `Promise(cancellation:resolver:)`, which `onCancel(_:)` registers on;
    /// ``CancellationToken/none`` for every other resolver. Stored here, rather than in a wrapper
    /// type, so that the body's `seal` stays a `Resolver<T>` and PromiseKit code passes it on.
    @usableFromInline let cancellation: CancellationToken

    @usableFromInline
    init(_ promise: Promise<T>, cancellation: CancellationToken = .none) {
        self.promise = promise
        self.cancellation = cancellation
    }

    deinit {
        // Nearly every resolver outlives a settled promise: answer from the settlement mark before
        // boxing an error (an allocation) for the rare abandoned one.
        guard !promise.settlement.isSealed else { return }
        promise.resolverDeallocated()
    }

    /// Fulfills the promise with `value`.
    @inlinable
    public func fulfill(_ value: T) {
        resolve(.fulfilled(value))
    }

    /// Rejects the promise with `error`.
    @inlinable
    public func reject(_ error: Error) {
        resolve(.rejected(error))
    }

    /// Settles the promise with `result`.
    @inlinable
    public func resolve(_ result: Result<T>) {
        if !promise.seal(result) {
            reportResolvedTwice()
        }
    }

    /// Settles the promise from a Cocoa-style `(T?, Error?)` callback: the error wins; with neither
    /// value nor error the promise is rejected with `PMKError.invalidCallingConvention`.
    @inlinable
    public func resolve(_ value: T?, _ error: Error?) {
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
    public func resolve(_ value: T, _ error: Error?) {
        if let error {
            reject(error)
        } else {
            fulfill(value)
        }
    }

    /// Settles the promise from an `(Error?, T?)` callback, as `resolve(_:_:)` with the order swapped.
    @inlinable
    public func resolve(_ error: Error?, _ value: T?) {
        resolve(value, error)
    }

    /// Settles the promise with a standard library `Result`, whatever its error type.
    @inlinable
    public func resolve<Failure: Error>(_ result: Swift.Result<T, Failure>) {
        resolve(Result(result))
    }

    @usableFromInline
    func reportResolvedTwice() {
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
    public func fulfill() {
        resolve(.fulfilled(()))
    }

    /// Fulfills the promise, or rejects it if `error` is not `nil`.
    @inlinable
    public func resolve(_ error: Error?) {
        if let error {
            reject(error)
        } else {
            fulfill()
        }
    }
}
