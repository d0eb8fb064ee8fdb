import Foundation

/// What the app decides when an order was edited here and changed on the server too.
public enum ConflictResolution: Equatable {
    case keepLocal
    case keepServer
}

/// Told about sync passes; asked about conflicts.
public protocol SyncEngineDelegate: AnyObject {
    func syncEngine(_ engine: SyncEngine, didFinishPass pushed: Int, pulled: Int)
    func syncEngine(_ engine: SyncEngine, resolveConflictFor order: Order, completionHandler: @escaping (ConflictResolution) -> Void)
}

/// Keeps the local copy of the user's orders in step with the server: pushes local edits, then
/// pulls the server's changes, on an operation queue so that passes never overlap.
public final class SyncEngine {
    private let client: APIClient
    private let queue: OperationQueue
    private let lock = NSLock()
    private var local: [String: Order] = [:]
    private var lastPull: Date?
    private let timeout: TimeInterval
    public weak var delegate: SyncEngineDelegate?

    public init(client: APIClient, maxConcurrentOperations: Int = 1, timeout: TimeInterval = 10) {
        self.client = client
        self.timeout = timeout
        queue = OperationQueue()
        queue.name = "com.cloudkitchen.sync"
        queue.maxConcurrentOperationCount = maxConcurrentOperations
    }

    /// The orders known locally, by id.
    public var orders: [String: Order] {
        lock.lock()
        defer { lock.unlock() }
        return local
    }

    /// Adds or replaces local orders (from an `OrderService` answer, say).
    public func track(_ orders: [Order]) {
        lock.lock()
        orders.forEach { local[$0.id] = $0 }
        lock.unlock()
    }

    /// Pushes the given orders' local edits; the count of orders pushed.
    public func push(_ orders: [Order], completion: @escaping (Result<Int, SDKError>) -> Void) {
        let operation = PushOrdersOperation(orders: orders, client: client, timeout: timeout)
        operation.completion = completion
        queue.addOperation(operation)
    }

    /// Pulls the orders changed on the server since the last pull and merges them.
    public func pull(completion: @escaping (Result<[Order], SDKError>) -> Void) {
        lock.lock()
        let since = lastPull
        lock.unlock()
        let operation = PullOrdersOperation(since: since, client: client, timeout: timeout)
        operation.completion = { [weak self] result in
            guard let self = self else { return }
            guard case .success(let changed) = result else {
                completion(result)
                return
            }
            self.merge(changed) {
                self.lock.lock()
                self.lastPull = Date()
                self.lock.unlock()
                completion(.success(changed))
            }
        }
        queue.addOperation(operation)
    }

    /// One pass: push what changed locally, then pull. Either error ends the pass.
    public func sync(completion: ((Error?) -> Void)? = nil) {
        let pending = orders.values.filter(\.hasLocalChanges).sorted { $0.id < $1.id }
        push(pending) { [weak self] pushed in
            guard let self = self else { return }
            switch pushed {
            case .failure(let error):
                completion?(error)
            case .success(let pushedCount):
                self.pull { pulled in
                    switch pulled {
                    case .failure(let error):
                        completion?(error)
                    case .success(let changed):
                        self.delegate?.syncEngine(self, didFinishPass: pushedCount, pulled: changed.count)
                        completion?(nil)
                    }
                }
            }
        }
    }

    /// Stops the queued passes; the one running finishes its current request.
    public func cancelAll() {
        queue.cancelAllOperations()
    }

    /// Waits until the queued operations are done (for apps going to the background).
    public func waitUntilIdle() {
        queue.waitUntilAllOperationsAreFinished()
    }

    private func merge(_ changed: [Order], completion: @escaping () -> Void) {
        let group = DispatchGroup()
        for order in changed {
            lock.lock()
            let mine = local[order.id]
            lock.unlock()
            guard let mine = mine, mine.hasLocalChanges, let delegate = delegate else {
                lock.lock()
                local[order.id] = order
                lock.unlock()
                continue
            }
            group.enter()
            delegate.syncEngine(self, resolveConflictFor: mine) { [weak self] resolution in
                if resolution == .keepServer, let self = self {
                    self.lock.lock()
                    self.local[order.id] = order
                    self.lock.unlock()
                }
                group.leave()
            }
        }
        group.notify(queue: .global(), execute: completion)
    }
}
