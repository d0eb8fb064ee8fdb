/// Runs `body` with a ``CancellationToken`` that is cancelled when the current task is, so async
/// code can cancel the promise-based work it calls.
///
/// ```swift
/// func handle(_ request: Request) async throws -> Response {
///     try await withCancellationToken { token in
///         try await legacyService.load(request.id, cancellation: token).value
///     }
/// }
/// ```
///
/// - Success and failure: returns what `body` returns and rethrows what it throws.
/// - Cancellation: when the current task is cancelled while `body` runs, the token is cancelled;
///   its handlers run synchronously on the thread that cancels the task. If the task is already
///   cancelled, the token is cancelled before `body` starts. Cancelling the token does not by itself
///   end `body`: the work that honours the token does.
///
/// `body` runs on the caller's actor (`isolation`). After `body` returns, the token can no longer
/// be cancelled, and the handlers still registered on it are released without running.
public func withCancellationToken<Success>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (CancellationToken) async throws -> Success
) async rethrows -> Success {
    let source = CancellationTokenSource()
    return try await withTaskCancellationHandler {
        try await body(source.token)
    } onCancel: {
        source.cancel()
    }
}
