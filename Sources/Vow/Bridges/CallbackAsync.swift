// Completion-handler APIs as async calls: `try await withCallback { done in legacy(completion: done) }`.
//
// Every adapter behaves the same way:
// - `start` runs at once, on the caller's actor (`isolation`), with a completion handler to pass to
//   the legacy API, which may call it on any thread. The first call decides the outcome; later
//   calls are ignored. The caller resumes through a checked continuation (the one inside
//   `Promise.value`), exactly once.
// - If the legacy API drops the handler without calling it, the call throws `VowError.abandoned`
//   instead of hanging.
// - Cancellation, two ways. If the awaiting task is cancelled, or `cancellation` is (`nil`: no
//   token), while the operation runs, the call throws at once (`CancellationError` for the task,
//   `VowError.cancelled` for the token; both answer `isCancelled`) and `onCancel` runs once, on the
//   cancelling thread, to stop the operation; its late answer is ignored. If either is already
//   cancelled, the call throws without calling `start`.

/// Calls an API whose completion handler receives `(T?, Error?)`, Cocoa style, and returns the value.
///
/// ```swift
/// let user = try await withCallback(onCancel: { request.cancel() }) { done in
///     request.start { user, error in done(user, error) }
/// }
/// ```
///
/// - Returns: The value when the error is `nil`.
/// - Throws: The error when there is one; `PMKError.invalidCallingConvention` when both are `nil`;
///   `VowError.abandoned`, `CancellationError` or `VowError.cancelled` as described
///   in <doc:BridgingToAsyncAwait#Callback-APIs-as-async-calls>.
public func withCallback<T: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    cancellation: CancellationToken? = nil,
    onCancel: (@Sendable () -> Void)? = nil,
    _ start: (@escaping @Sendable (T?, (any Error)?) -> Void) -> Void
) async throws -> T {
    try await awaitCallback(onCancel: onCancel) {
        Promise<T>.fromCallback(cancellation: cancellation, onCancel: onCancel, start)
    }
}

/// Calls an API whose completion handler receives `(T, Error?)` and returns the value.
///
/// - Returns: The value when the error is `nil`.
/// - Throws: The error when there is one; `VowError.abandoned`, `CancellationError` or
///   `VowError.cancelled` as described in <doc:BridgingToAsyncAwait#Callback-APIs-as-async-calls>.
public func withCallback<T: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    cancellation: CancellationToken? = nil,
    onCancel: (@Sendable () -> Void)? = nil,
    _ start: (@escaping @Sendable (T, (any Error)?) -> Void) -> Void
) async throws -> T {
    try await awaitCallback(onCancel: onCancel) {
        Promise<T>.fromCallback(cancellation: cancellation, onCancel: onCancel, start)
    }
}

/// Calls an API whose completion handler receives only an optional error.
///
/// Returns when the handler is called with `nil`.
///
/// - Throws: The error it is called with; `VowError.abandoned`, `CancellationError` or
///   `VowError.cancelled` as described in <doc:BridgingToAsyncAwait#Callback-APIs-as-async-calls>.
public func withCallback(
    isolation: isolated (any Actor)? = #isolation,
    cancellation: CancellationToken? = nil,
    onCancel: (@Sendable () -> Void)? = nil,
    _ start: (@escaping @Sendable ((any Error)?) -> Void) -> Void
) async throws {
    try await awaitCallback(onCancel: onCancel) {
        Promise<Void>.fromCallback(cancellation: cancellation, onCancel: onCancel, start)
    }
}

/// Calls an API whose completion handler receives a `Result`, whatever its error type.
///
/// - Returns: `.success`'s value.
/// - Throws: `.failure`'s error; `VowError.abandoned`, `CancellationError` or `VowError.cancelled`
///   as described in <doc:BridgingToAsyncAwait#Callback-APIs-as-async-calls>.
public func withCallback<T: Sendable, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation,
    cancellation: CancellationToken? = nil,
    onCancel: (@Sendable () -> Void)? = nil,
    _ start: (@escaping @Sendable (Swift.Result<T, Failure>) -> Void) -> Void
) async throws -> T {
    try await awaitCallback(onCancel: onCancel) {
        Promise<T>.fromCallback(cancellation: cancellation, onCancel: onCancel, start)
    }
}

/// Calls an API whose completion handler receives only a value and cannot fail.
///
/// Named apart from `withCallback` because a `(T)` handler would otherwise also match the
/// `(Error?)` and `Result` shapes (with `T` inferred as `Error?` or `Result`).
///
/// - Returns: The value.
/// - Throws: Only `VowError.abandoned`, `CancellationError` or `VowError.cancelled`, as described
///   in <doc:BridgingToAsyncAwait#Callback-APIs-as-async-calls>.
public func withValueCallback<T: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    cancellation: CancellationToken? = nil,
    onCancel: (@Sendable () -> Void)? = nil,
    _ start: (@escaping @Sendable (T) -> Void) -> Void
) async throws -> T {
    try await awaitCallback(onCancel: onCancel) {
        Promise<T>.fromValueCallback(cancellation: cancellation, onCancel: onCancel, start)
    }
}

/// Starts the operation unless the task is already cancelled, then waits for its promise; the
/// task's cancellation rejects the promise with `CancellationError` and runs `onCancel`.
private func awaitCallback<T: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    onCancel: (@Sendable () -> Void)?,
    start: () -> Promise<T>
) async throws -> T {
    try Task.checkCancellation()
    let promise = start()
    return try await withTaskCancellationHandler {
        try await promise.value
    } onCancel: {
        promise.cancelOperation(with: CancellationError(), onCancel: onCancel)
    }
}
