import Foundation

// Handler typealiases, declared away from the functions that use them, as SDKs do.

typealias CompletionHandler<T> = @Sendable (Result<T, Error>) -> Void
typealias DataCompletion = @Sendable (_ data: Data?, _ response: HTTPResponse?, _ error: Error?) -> Void
typealias VoidCompletion = @Sendable (Error?) -> Void
typealias SuccessHandler = @Sendable (Credentials) -> Void
typealias FailureHandler = @Sendable (Error) -> Void
typealias ImageCompletion = @Sendable (Image?, Error?) -> Void

enum Store {
    /// Namespaced, as a store-kit wrapper would spell it: `Store.PurchaseCompletion`.
    typealias PurchaseCompletion = @Sendable (Result<Transaction, SDKError>) -> Void
    typealias ProductsCompletion = @Sendable ([Product], Error?) -> Void
}

final class OAuthRequest: Sendable {
    /// Nested in the request type: `OAuthRequest.CompletionHandler`.
    typealias CompletionHandler = @Sendable (Result<Credentials, Error>) -> Void
}

extension ImageTask: Cancellable {
    func cancel() {
        stop()
    }
}
