import Hummingbird
import Vow

/// Logs each request when it arrives and when it is answered, and cancels the request's Task when
/// its client disconnects before the answer.
///
/// Hummingbird 2 does not cancel a handler when its client goes away: on its own, the handler (and
/// the legacy work it started) would run to the end for nobody. `RequestBody`'s
/// `consumeWithCancellationOnInboundClose` watches the connection while the handler runs and
/// cancels the handler's Task when the client closes it; `withCancellationToken` in the handlers
/// carries that cancellation on to the legacy work. A side effect: the connection is closed after
/// the response, so the response says `Connection: close`.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let log: ServiceLog
    private let requestNumbers = CallCounter()

    init(log: ServiceLog) {
        self.log = log
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let name = "#\(requestNumbers.increment()) \(request.method) \(request.uri)"
        let log = self.log
        log("http    | \(name)")
        let started = ContinuousClock.now
        func elapsed() -> String {
            "\(Int((ContinuousClock.now - started) / .milliseconds(1))) ms"
        }
        do {
            var response: Response
            do {
                response = try await request.body.consumeWithCancellationOnInboundClose { body in
                    var request = request
                    request.body = body
                    return try await withTaskCancellationHandler {
                        try await next(request, context)
                    } onCancel: {
                        log("http    | \(name): client disconnected, request Task cancelled")
                    }
                }
            } catch let error as any HTTPResponseError {
                // Answered here rather than by the router, to add the header below.
                response = try error.response(from: request, context: context)
            }
            // Watching for the disconnect consumed the connection's input: say it ends here.
            response.headers[.connection] = "close"
            log("http    | \(name) -> \(response.status.code) (\(elapsed()))")
            return response
        } catch where error.isCancelled {
            log("http    | \(name) -> no response, the request was cancelled (\(elapsed()))")
            throw error
        } catch {
            log("http    | \(name) -> failed with \(error) (\(elapsed()))")
            throw error
        }
    }
}
