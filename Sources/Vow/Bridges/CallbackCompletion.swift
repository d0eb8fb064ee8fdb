// The machinery shared by the callback adapters (`Promise.fromCallback`, `withCallback`): a
// completion handler that settles a promise once, notices when the legacy API drops it uncalled,
// and a token that cancels the operation.

/// Settles the adapter's promise from a legacy API's completion handler.
///
/// Only the completion closure handed to the legacy API holds it, so when that API drops the
/// closure without calling it, `deinit` abandons the promise as a dropped resolver does
/// (`VowError.abandoned` as soon as anything waits): nothing waits forever. Calls after the first
/// (a late answer after cancellation, a buggy double call) are ignored.
final class CallbackCompletion<T: Sendable>: Sendable {
    private let promise: Promise<T>

    init(_ promise: Promise<T>) {
        self.promise = promise
    }

    func complete(_ result: Result<T>) {
        promise.seal(result)
    }

    deinit {
        promise.resolverDeallocated()
    }
}

extension Promise {
    /// A promise settled by `start`'s completion, cancelled (once, and only while pending) through
    /// `cancellation`, which then runs `onCancel`.
    static func adaptingCallback(
        cancellation: CancellationToken,
        onCancel: (@Sendable () -> Void)?,
        site: CreationSite,
        start: (CallbackCompletion<T>) -> Void
    ) -> Promise<T> {
        let promise = Promise<T>(pendingAt: site)
        guard !cancellation.isCancellationRequested else {
            promise.seal(.rejected(VowError.cancelled))
            return promise
        }
        start(CallbackCompletion(promise))
        guard cancellation.canBeCancelled, promise.isPending else { return promise }
        let registrationSlot = TokenRegistrationSlot(token: cancellation)
        registrationSlot.hold(cancellation.register {
            promise.cancelOperation(with: VowError.cancelled, onCancel: onCancel)
        })
        promise.whenSettled { _ in registrationSlot.release() }
        return promise
    }

    /// Rejects with `error` and runs `onCancel`, unless the promise already settled (then the
    /// operation is over and there is nothing to cancel).
    func cancelOperation(with error: any Error, onCancel: (@Sendable () -> Void)?) {
        if seal(.rejected(error)) {
            onCancel?()
        }
    }
}

// MARK: - Completion shapes

extension Result {
    /// A Cocoa-style `(T?, Error?)` answer: the error wins; neither is
    /// `PMKError.invalidCallingConvention` (as `Resolver.resolve(_:_:)`).
    init(callbackValue value: T?, error: (any Error)?) {
        if let error {
            self = .rejected(error)
        } else if let value {
            self = .fulfilled(value)
        } else {
            self = .rejected(PMKError.invalidCallingConvention)
        }
    }

    /// A `(T, Error?)` answer: rejected if there is an error.
    init(callbackValue value: T, error: (any Error)?) {
        if let error {
            self = .rejected(error)
        } else {
            self = .fulfilled(value)
        }
    }
}

extension Result where T == Void {
    /// An `(Error?)` answer: rejected if there is an error.
    init(callbackError error: (any Error)?) {
        if let error {
            self = .rejected(error)
        } else {
            self = .fulfilled(())
        }
    }
}
