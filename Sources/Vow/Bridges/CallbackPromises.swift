// Completion-handler APIs as promises: `Promise.fromCallback { done in legacy(completion: done) }`.
//
// Every adapter behaves the same way:
// - `start` runs at once, on the calling thread, with a completion handler to pass to the legacy
//   API. The first call of that handler settles the promise; later calls are ignored. It may be
//   called on any thread; handlers attached with `on: nil` then run there.
// - If the legacy API drops the handler without calling it, the promise is rejected with
//   `VowError.abandoned`.
// - `cancellation` (`nil`: none): when the token is cancelled while the promise is pending, the promise is
//   rejected at once with `VowError.cancelled` and `onCancel` runs (on the cancelling thread) to
//   stop the operation; its late answer is ignored. A token already cancelled rejects without
//   calling `start`. The registration on the token is removed when the promise settles.

extension Promise {
    /// A promise for an API whose completion handler receives `(T?, Error?)`, Cocoa style.
    ///
    /// ```swift
    /// let data = Promise<Data>.fromCallback(cancellation: token, onCancel: { task.cancel() }) { done in
    ///     task = session.dataTask(with: url) { data, _, error in done(data, error) }
    ///     task.resume()
    /// }
    /// ```
    ///
    /// - Fulfilled with the value when the error is `nil`; rejected with the error when there is
    ///   one; rejected with `PMKError.invalidCallingConvention` when both are `nil`.
    /// - Abandoned and cancelled: see <doc:BridgingToAsyncAwait#Callback-APIs-as-async-calls>; in short,
    ///   `VowError.abandoned` if the handler is dropped uncalled, `VowError.cancelled` (and
    ///   `onCancel`) if `cancellation` fires first.
    public static func fromCallback(
        cancellation: CancellationToken? = nil,
        onCancel: (@Sendable () -> Void)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ start: (@escaping @Sendable (T?, (any Error)?) -> Void) -> Void
    ) -> Promise<T> {
        adaptingCallback(cancellation: cancellation ?? .none, onCancel: onCancel, site: CreationSite(file: file, line: line)) { completion in
            start { value, error in completion.complete(Result(callbackValue: value, error: error)) }
        }
    }

    /// A promise for an API whose completion handler receives `(T, Error?)`.
    ///
    /// - Fulfilled with the value when the error is `nil`, rejected with the error otherwise.
    /// - `VowError.abandoned` if the handler is dropped uncalled; `VowError.cancelled` (and
    ///   `onCancel`) if `cancellation` fires first.
    public static func fromCallback(
        cancellation: CancellationToken? = nil,
        onCancel: (@Sendable () -> Void)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ start: (@escaping @Sendable (T, (any Error)?) -> Void) -> Void
    ) -> Promise<T> {
        adaptingCallback(cancellation: cancellation ?? .none, onCancel: onCancel, site: CreationSite(file: file, line: line)) { completion in
            start { value, error in completion.complete(Result(callbackValue: value, error: error)) }
        }
    }

    /// A promise for an API whose completion handler receives a `Result`, whatever its error type.
    ///
    /// - Fulfilled with `.success`'s value, rejected with `.failure`'s error.
    /// - `VowError.abandoned` if the handler is dropped uncalled; `VowError.cancelled` (and
    ///   `onCancel`) if `cancellation` fires first.
    public static func fromCallback<Failure: Error>(
        cancellation: CancellationToken? = nil,
        onCancel: (@Sendable () -> Void)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ start: (@escaping @Sendable (Swift.Result<T, Failure>) -> Void) -> Void
    ) -> Promise<T> {
        adaptingCallback(cancellation: cancellation ?? .none, onCancel: onCancel, site: CreationSite(file: file, line: line)) { completion in
            start { result in completion.complete(Result(result)) }
        }
    }

    /// A promise for an API whose completion handler receives only a value and cannot fail.
    ///
    /// Named apart from `fromCallback` because a `(T)` handler would otherwise also match the
    /// `(Error?)` and `Result` shapes (with `T` inferred as `Error?` or `Result`).
    ///
    /// - Fulfilled with the value.
    /// - `VowError.abandoned` if the handler is dropped uncalled; `VowError.cancelled` (and
    ///   `onCancel`) if `cancellation` fires first. Without those, the promise never rejects.
    public static func fromValueCallback(
        cancellation: CancellationToken? = nil,
        onCancel: (@Sendable () -> Void)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ start: (@escaping @Sendable (T) -> Void) -> Void
    ) -> Promise<T> {
        adaptingCallback(cancellation: cancellation ?? .none, onCancel: onCancel, site: CreationSite(file: file, line: line)) { completion in
            start { value in completion.complete(.fulfilled(value)) }
        }
    }
}

extension Promise where T == Void {
    /// A promise for an API whose completion handler receives only an optional error.
    ///
    /// - Fulfilled when the error is `nil`, rejected with the error otherwise.
    /// - `VowError.abandoned` if the handler is dropped uncalled; `VowError.cancelled` (and
    ///   `onCancel`) if `cancellation` fires first.
    public static func fromCallback(
        cancellation: CancellationToken? = nil,
        onCancel: (@Sendable () -> Void)? = nil,
        file: StaticString = #fileID,
        line: UInt = #line,
        _ start: (@escaping @Sendable ((any Error)?) -> Void) -> Void
    ) -> Promise<Void> {
        adaptingCallback(cancellation: cancellation ?? .none, onCancel: onCancel, site: CreationSite(file: file, line: line)) { completion in
            start { error in completion.complete(Result(callbackError: error)) }
        }
    }
}
