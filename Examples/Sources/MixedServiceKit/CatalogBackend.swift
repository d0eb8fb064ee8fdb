import Foundation

// The oldest layer: a client for the catalog's backend, written in the callback era. Every answer
// comes back later, on the client's own serial queue, through a completion handler; every call
// returns a handle whose `cancel()` stops it, as `URLSessionTask` does. Nothing in this file knows
// about promises or async/await, and nothing here changes when the layers above it do.

/// A product as the backend stores it.
public struct ProductRecord: Sendable, Equatable {
    public let id: Int
    public let name: String
    /// In whole euros.
    public let price: Int
}

/// What the backend can fail with.
public enum BackendError: Error, Equatable {
    /// The part of the backend that holds the answer is down (a warehouse's stock system).
    case unavailable(String)
    /// The caller cancelled the call; the completion handler reports it, as `URLSession` reports
    /// `URLError.cancelled`.
    case cancelled
}

/// A call to the backend in flight. `cancel()` asks the backend to stop; the backend notices at
/// its next step and completes the call with `BackendError.cancelled`.
public final class BackendCall: @unchecked Sendable {
    // `@unchecked`: `lock` guards `cancelled`.
    private let lock = NSLock()
    private var cancelled = false

    init() {}

    /// Asks the backend to stop this call. Thread-safe; later calls do nothing.
    public func cancel() {
        lock.withLock { cancelled = true }
    }

    /// `true` once `cancel()` has been called.
    public var isCancelled: Bool {
        lock.withLock { cancelled }
    }
}

/// How long the backend takes. The defaults make a demo you can watch; the tests shorten them.
public struct BackendTiming: Sendable {
    /// One record or stock lookup.
    public var lookup: Duration
    /// One shelf of a stock audit (an audit counts one shelf at a time).
    public var auditShelf: Duration
    /// How often a lookup of a locked record retries.
    public var lockedRecordRetry: Duration

    public init(
        lookup: Duration = .milliseconds(20),
        auditShelf: Duration = .milliseconds(200),
        lockedRecordRetry: Duration = .milliseconds(50)
    ) {
        self.lookup = lookup
        self.auditShelf = auditShelf
        self.lockedRecordRetry = lockedRecordRetry
    }
}

/// The legacy catalog backend.
///
/// The data is made up but fixed, so a reader (and the tests) can check every answer:
/// - products 1 Kettle, 2 Lamp, 3 Desk, 5 Chair; there is no product 4;
/// - 6 Sofa's stock in Osaka lives in a system that is down: that stock lookup fails;
/// - 7 Piano's record is locked by a batch job: its lookup retries until it is cancelled;
/// - every product holds `id + warehouse name length` items in each warehouse.
public final class CatalogBackend: Sendable {
    /// The warehouses every product is stocked in.
    public static let warehouses = ["Berlin", "Dublin", "Osaka"]
    static let products: [Int: ProductRecord] = [
        1: ProductRecord(id: 1, name: "Kettle", price: 25),
        2: ProductRecord(id: 2, name: "Lamp", price: 40),
        3: ProductRecord(id: 3, name: "Desk", price: 180),
        5: ProductRecord(id: 5, name: "Chair", price: 95),
        6: ProductRecord(id: 6, name: "Sofa", price: 450),
        7: ProductRecord(id: 7, name: "Piano", price: 3_900),
    ]
    static let lockedRecords: Set<Int> = [7]
    static let stockSystemsDown = [6: "Osaka"]

    private let queue = DispatchQueue(label: "legacy-catalog-backend")
    private let timing: BackendTiming
    private let log: ServiceLog
    // `CallCounter` is thread-safe, so the backend stays `Sendable`.
    private let inFlight = CallCounter()

    public init(timing: BackendTiming = BackendTiming(), log: ServiceLog) {
        self.timing = timing
        self.log = log
    }

    /// Calls started whose completion has not run yet.
    public var callsInFlight: Int {
        inFlight.value
    }

    // MARK: - Calls

    /// Looks up the product with `id`. Cocoa style: the record, or an error; both `nil` means
    /// there is no such product.
    @discardableResult
    public func fetchProduct(id: Int, completion: @escaping @Sendable (ProductRecord?, Error?) -> Void) -> BackendCall {
        let call = start()
        let finish: @Sendable (ProductRecord?, Error?) -> Void = { [inFlight] record, error in
            inFlight.decrement()
            completion(record, error)
        }
        if Self.lockedRecords.contains(id) {
            retryLockedRecord(id: id, call: call, finish: finish)
        } else {
            after(timing.lookup) {
                if call.isCancelled {
                    finish(nil, BackendError.cancelled)
                } else {
                    finish(Self.products[id], nil)
                }
            }
        }
        return call
    }

    /// How many of product `productID` the warehouse holds.
    @discardableResult
    public func fetchStock(
        productID: Int,
        warehouse: String,
        completion: @escaping @Sendable (Result<Int, BackendError>) -> Void
    ) -> BackendCall {
        let call = start()
        after(timing.lookup) { [inFlight] in
            inFlight.decrement()
            if call.isCancelled {
                completion(.failure(.cancelled))
            } else if Self.stockSystemsDown[productID] == warehouse {
                completion(.failure(.unavailable("\(warehouse) stock system")))
            } else {
                completion(.success(productID + warehouse.count))
            }
        }
        return call
    }

    /// Counts product `productID` shelf by shelf, slowly, and reports how many items it found.
    ///
    /// Like most legacy loops, it checks its call's cancel flag between two steps: that is all a
    /// cancellation can reach, and it is enough.
    @discardableResult
    public func auditStock(
        productID: Int,
        shelves: Int,
        completion: @escaping @Sendable (Result<Int, BackendError>) -> Void
    ) -> BackendCall {
        let call = start()
        log("legacy  | audit of product \(productID): counting \(shelves) shelves")
        countShelf(1, of: shelves, productID: productID, counted: 0, call: call) { [inFlight] result in
            inFlight.decrement()
            completion(result)
        }
        return call
    }

    // MARK: - Machinery

    private func start() -> BackendCall {
        inFlight.increment()
        return BackendCall()
    }

    private func countShelf(
        _ shelf: Int,
        of shelves: Int,
        productID: Int,
        counted: Int,
        call: BackendCall,
        finish: @escaping @Sendable (Result<Int, BackendError>) -> Void
    ) {
        after(timing.auditShelf) { [self] in
            if call.isCancelled {
                log("legacy  | audit of product \(productID): stopped after \(shelf - 1) of \(shelves) shelves, call cancelled")
                finish(.failure(.cancelled))
                return
            }
            let total = counted + productID
            if shelf == shelves {
                log("legacy  | audit of product \(productID): done, \(total) items")
                finish(.success(total))
            } else {
                countShelf(shelf + 1, of: shelves, productID: productID, counted: total, call: call, finish: finish)
            }
        }
    }

    private func retryLockedRecord(id: Int, call: BackendCall, finish: @escaping @Sendable (ProductRecord?, Error?) -> Void) {
        after(timing.lockedRecordRetry) { [self] in
            if call.isCancelled {
                log("legacy  | lookup of product \(id): gave up waiting for its locked record, call cancelled")
                finish(nil, BackendError.cancelled)
            } else {
                retryLockedRecord(id: id, call: call, finish: finish)
            }
        }
    }

    /// Runs `work` on the backend's queue after `delay`: a timer, not a blocked thread.
    private func after(_ delay: Duration, _ work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay / .nanoseconds(1))), execute: work)
    }
}

/// A thread-safe count.
final class CallCounter: @unchecked Sendable {
    // `@unchecked`: `lock` guards `count`.
    private let lock = NSLock()
    private var count = 0

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }

    func decrement() {
        lock.withLock { count -= 1 }
    }

    var value: Int {
        lock.withLock { count }
    }
}
