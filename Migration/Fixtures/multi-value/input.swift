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

    // No error: the values are the result, optionals included.
    func peek(completion: @escaping @Sendable (String?, Int) -> Void) {
        completion(nil, 0)
    }
}
