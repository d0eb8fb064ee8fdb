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

    // The handler is called twice: a cached answer, then a fresh one.
    func refresh(id: Int, completion: @escaping @Sendable (Response?, Error?) -> Void) {
        completion(Response(status: 304), nil)
        completion(Response(status: 200), nil)
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
