import Foundation

struct Response: Sendable {
    let status: Int
}

final class Legacy: Sendable {
    // Returns something that is not a cancellable handle.
    func enqueue(job: String, completion: @escaping @Sendable (Error?) -> Void) -> Int {
        completion(nil)
        return 1
    }

    // The handler passes three values.
    func fetch(url: URL, completion: @escaping @Sendable (Data?, Response?, Error?) -> Void) {
        completion(nil, nil, nil)
    }

    // Variadic arguments cannot be forwarded.
    func log(_ messages: String..., completion: @escaping @Sendable (Error?) -> Void) {
        completion(nil)
    }

    // Already async: nothing to do.
    func refresh() async {}

    // No completion handler at all.
    func transform(_ values: [Int], _ body: (Int) -> Int) -> [Int] {
        values.map(body)
    }
}
