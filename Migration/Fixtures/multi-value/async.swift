import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

struct Page: Sendable {
    let items: [String]
}

/// Stands for `URLResponse` (in FoundationNetworking on Linux).
struct URLResponse: Sendable {}
struct HTTPURLResponse: Sendable {}

final class Transport: Sendable {
    // Labels come from the handler's parameter names.
    @available(*, renamed: "get(url:)")
    func get(url: URL, completion: @escaping @Sendable (_ data: Data?, _ response: URLResponse?, _ error: Error?) -> Void) {
        completion(Data(), URLResponse(), nil)
    }

    /// Async alternative to `get(url:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func get(url: URL) async throws -> (data: Data, response: URLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            get(url: url) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let data, let response {
                    continuation.resume(returning: (data: data, response: response))
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "get(url:completion:)"))
                }
            }
        }
    }

    // Without names, from the types: `data`, `response`.
    @available(*, renamed: "head(url:)")
    func head(url: URL, completionHandler: @escaping @Sendable (Data?, HTTPURLResponse?, Error?) -> Void) {
        completionHandler(nil, nil, nil)
    }

    /// Async alternative to `head(url:completionHandler:)`, added by vow-migrate.
    nonisolated(nonsending) func head(url: URL) async throws -> (data: Data, response: HTTPURLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            head(url: url) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let data, let response {
                    continuation.resume(returning: (data: data, response: response))
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "head(url:completionHandler:)"))
                }
            }
        }
    }

    // Values that are not optional are passed on as they are; the error may come first.
    @available(*, renamed: "page(number:)")
    func page(number: Int, completion: @escaping @Sendable (Error?, Page, Int) -> Void) {
        completion(nil, Page(items: []), 0)
    }

    /// Async alternative to `page(number:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func page(number: Int) async throws -> (page: Page, int: Int) {
        try await withCheckedThrowingContinuation { continuation in
            page(number: number) { error, page, int in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: (page: page, int: int))
                }
            }
        }
    }

    // An error between values (`(NSObject?, Error?, HTTPURLResponse)`): the response counts on
    // failure too, and `(nil, nil, response)` is an answer (a 404); every value, the error
    // included, is passed on as it is, and the alternative throws nothing.
    @available(*, renamed: "fetch(path:)")
    func fetch(path: String, callback: @escaping @Sendable (String?, Error?, HTTPURLResponse) -> Void) {
        callback(nil, nil, HTTPURLResponse())
    }

    /// Async alternative to `fetch(path:callback:)`, added by vow-migrate.
    nonisolated(nonsending) func fetch(path: String) async -> (string: String?, error: Error?, response: HTTPURLResponse) {
        await withCheckedContinuation { continuation in
            fetch(path: path) { string, error, response in
                continuation.resume(returning: (string: string, error: error, response: response))
            }
        }
    }

    // No error: the values are the result, optionals included.
    @available(*, renamed: "peek()")
    func peek(completion: @escaping @Sendable (String?, Int) -> Void) {
        completion(nil, 0)
    }

    /// Async alternative to `peek(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func peek() async -> (string: String?, int: Int) {
        await withCheckedContinuation { continuation in
            peek { string, int in
                continuation.resume(returning: (string: string, int: int))
            }
        }
    }
}
