import Hummingbird
import Vow

/// Turns the layers' errors into HTTP statuses, in one place, so that no handler has to.
///
/// | error | status |
/// | --- | --- |
/// | `CatalogError.productNotFound` | 404 Not Found |
/// | bad input (`HTTPError(.badRequest)`, thrown by the routes) | 400 Bad Request |
/// | `BackendError.unavailable`, `ReviewsError.sourcesUnavailable` | 503 Service Unavailable |
/// | `LegacyDeadlineExceeded` | 504 Gateway Timeout |
///
/// Cancellations pass through unchanged: they happen when the client is gone, and there is nobody
/// to answer.
struct ErrorStatusMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            throw Self.httpError(for: error)
        }
    }

    /// The error to answer with for `error`.
    static func httpError(for error: any Error) -> any Error {
        switch error {
        case CatalogError.productNotFound(let id):
            return HTTPError(.notFound, message: "There is no product \(id).")
        case BackendError.unavailable(let part):
            return HTTPError(.serviceUnavailable, message: "The catalog backend is unavailable (\(part)).")
        case ReviewsError.sourcesUnavailable(let productID):
            return HTTPError(.serviceUnavailable, message: "The review sources for product \(productID) are unavailable.")
        case let timeout as LegacyDeadlineExceeded:
            return HTTPError(.gatewayTimeout, message: "The catalog backend did not answer within \(timeout.seconds) s.")
        default:
            // HTTPError (bad input) is already a status; a cancellation has nobody to answer.
            return error
        }
    }
}
