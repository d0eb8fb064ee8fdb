import Foundation
import Vow

struct Page: Sendable {
    let items: [String]
}

/// Stands for `URLResponse` (in FoundationNetworking on Linux).
struct URLResponse: Sendable {}
struct HTTPURLResponse: Sendable {}

final class Transport: Sendable {
    // Labels come from the handler's parameter names.
    func get(url: URL, completion: @escaping @Sendable (_ data: Data?, _ response: URLResponse?, _ error: Error?) -> Void) {
        completion(Data(), URLResponse(), nil)
    }

    /// Promise-based alternative to `get(url:completion:)`, added by vow-migrate.
    func get(url: URL) -> Promise<(data: Data, response: URLResponse)> {
        Promise { seal in
            get(url: url) { data, response, error in
                if let error {
                    seal.reject(error)
                } else if let data, let response {
                    seal.fulfill((data: data, response: response))
                } else {
                    seal.reject(PMKError.invalidCallingConvention)
                }
            }
        }
    }

    // Without names, from the types: `data`, `response`.
    func head(url: URL, completionHandler: @escaping @Sendable (Data?, HTTPURLResponse?, Error?) -> Void) {
        completionHandler(nil, nil, nil)
    }

    /// Promise-based alternative to `head(url:completionHandler:)`, added by vow-migrate.
    func head(url: URL) -> Promise<(data: Data, response: HTTPURLResponse)> {
        Promise { seal in
            head(url: url) { data, response, error in
                if let error {
                    seal.reject(error)
                } else if let data, let response {
                    seal.fulfill((data: data, response: response))
                } else {
                    seal.reject(PMKError.invalidCallingConvention)
                }
            }
        }
    }

    // Values that are not optional are passed on as they are; the error may come first.
    func page(number: Int, completion: @escaping @Sendable (Error?, Page, Int) -> Void) {
        completion(nil, Page(items: []), 0)
    }

    /// Promise-based alternative to `page(number:completion:)`, added by vow-migrate.
    func page(number: Int) -> Promise<(page: Page, int: Int)> {
        Promise { seal in
            page(number: number) { error, page, int in
                if let error {
                    seal.reject(error)
                } else {
                    seal.fulfill((page: page, int: int))
                }
            }
        }
    }

    // An error between values (`(NSObject?, Error?, HTTPURLResponse)`): the response counts on
    // failure too, and `(nil, nil, response)` is an answer (a 404); every value, the error
    // included, is passed on as it is, and the alternative throws nothing.
    func fetch(path: String, callback: @escaping @Sendable (String?, Error?, HTTPURLResponse) -> Void) {
        callback(nil, nil, HTTPURLResponse())
    }

    /// Promise-based alternative to `fetch(path:callback:)`, added by vow-migrate.
    func fetch(path: String) -> Guarantee<(string: String?, error: Error?, response: HTTPURLResponse)> {
        Guarantee { resolve in
            fetch(path: path) { string, error, response in
                resolve((string: string, error: error, response: response))
            }
        }
    }

    // No error: the values are the result, optionals included.
    func peek(completion: @escaping @Sendable (String?, Int) -> Void) {
        completion(nil, 0)
    }

    /// Promise-based alternative to `peek(completion:)`, added by vow-migrate.
    func peek() -> Guarantee<(string: String?, int: Int)> {
        Guarantee { resolve in
            peek { string, int in
                resolve((string: string, int: int))
            }
        }
    }
}
