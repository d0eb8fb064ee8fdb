import Foundation

/// The base of the sync engine's operations: `main` sends its request and blocks this operation's
/// thread until the answer, so that the queue's `maxConcurrentOperationCount` really bounds the
/// requests in flight. Subclasses keep their completion handler in a property, set by the engine
/// before the operation is queued, and call it exactly once from `main`.
// `Operation` is `@unchecked Sendable` in Foundation; newer compilers ask subclasses to say so again.
class SyncOperation: Operation, @unchecked Sendable {
    let client: APIClient
    /// Seconds before a request that does not answer is given up.
    let timeout: TimeInterval

    init(client: APIClient, timeout: TimeInterval) {
        self.client = client
        self.timeout = timeout
        super.init()
    }

    /// Performs `request` and waits for the answer (or the timeout).
    func performAndWait(_ request: HTTPRequest) -> Result<HTTPResponse, SDKError> {
        let semaphore = DispatchSemaphore(value: 0)
        var outcome: Result<HTTPResponse, SDKError> = .failure(.network("timed out"))
        let handle = client.perform(request) { result in
            outcome = result
            semaphore.signal()
        }
        if semaphore.wait(timeout: .now() + timeout) == .timedOut {
            handle.cancel()
            return .failure(.network("timed out"))
        }
        return outcome
    }
}

/// Pushes local edits of orders (their notes and quantities) to the server.
final class PushOrdersOperation: SyncOperation, @unchecked Sendable {
    let orders: [Order]
    var completion: ((Result<Int, SDKError>) -> Void)?

    init(orders: [Order], client: APIClient, timeout: TimeInterval) {
        self.orders = orders
        super.init(client: client, timeout: timeout)
    }

    override func main() {
        guard !isCancelled else {
            completion?(.failure(.cancelled))
            return
        }
        var pushed = 0
        for order in orders where order.hasLocalChanges {
            let request: HTTPRequest
            do {
                request = try HTTPRequest.json(.patch, "orders/\(order.id)", ["lines": order.lines])
            } catch {
                completion?(.failure(SDKError(error)))
                return
            }
            switch performAndWait(request) {
            case .failure(let error):
                completion?(.failure(error))
                return
            case .success(let response):
                if let error = JSONCoding.error(for: response) {
                    completion?(.failure(error))
                    return
                }
                order.hasLocalChanges = false
                pushed += 1
            }
        }
        completion?(.success(pushed))
    }
}

/// Pulls the orders changed on the server since a date.
final class PullOrdersOperation: SyncOperation, @unchecked Sendable {
    let since: Date?
    var completion: ((Result<[Order], SDKError>) -> Void)?

    init(since: Date?, client: APIClient, timeout: TimeInterval) {
        self.since = since
        super.init(client: client, timeout: timeout)
    }

    override func main() {
        guard !isCancelled else {
            completion?(.failure(.cancelled))
            return
        }
        var request = HTTPRequest(path: "orders/changes")
        if let since = since {
            request.query["since"] = String(Int(since.timeIntervalSince1970))
        }
        switch performAndWait(request) {
        case .failure(let error):
            completion?(.failure(error))
        case .success(let response):
            let semaphore = DispatchSemaphore(value: 0)
            var decoded: Result<[Order], SDKError> = .failure(.decoding("no answer"))
            JSONCoding.decode([Order].self, from: response) { result in
                decoded = result
                semaphore.signal()
            }
            semaphore.wait()
            completion?(decoded)
        }
    }
}
