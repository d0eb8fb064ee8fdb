import Foundation

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

    // Without names, from the types: `data`, `response`.
    func head(url: URL, completionHandler: @escaping @Sendable (Data?, HTTPURLResponse?, Error?) -> Void) {
        completionHandler(nil, nil, nil)
    }

    // Values that are not optional are passed on as they are; the error may come first.
    func page(number: Int, completion: @escaping @Sendable (Error?, Page, Int) -> Void) {
        completion(nil, Page(items: []), 0)
    }

    // An error between values (`(NSObject?, Error?, HTTPURLResponse)`): the response counts on
    // failure too, and `(nil, nil, response)` is an answer (a 404); every value, the error
    // included, is passed on as it is, and the alternative throws nothing.
    func fetch(path: String, callback: @escaping @Sendable (String?, Error?, HTTPURLResponse) -> Void) {
        callback(nil, nil, HTTPURLResponse())
    }

    // No error: the values are the result, optionals included.
    func peek(completion: @escaping @Sendable (String?, Int) -> Void) {
        completion(nil, 0)
    }
}
