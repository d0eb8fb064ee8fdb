import Foundation

struct Page: Sendable {
    let number: Int
}

// Calls its stored handler once on every path of `main()`, its only caller.
final class PageOperation: Operation, @unchecked Sendable {
    let number: Int
    var completion: (@Sendable (Result<Page, Error>) -> Void)?

    init(number: Int) {
        self.number = number
    }

    override func main() {
        guard !isCancelled else {
            completion?(.failure(CancellationError()))
            return
        }
        let finish = completion
        completion = nil
        finish?(.success(Page(number: number)))
    }
}

// Calls it from two methods: either may run, or both.
final class RetryingOperation: Operation, @unchecked Sendable {
    var onFinish: (@Sendable (Error?) -> Void)?

    override func main() {
        onFinish?(nil)
    }

    override func cancel() {
        super.cancel()
        onFinish?(CancellationError())
    }
}

final class PageLoader: @unchecked Sendable {
    let queue = OperationQueue()
    private var waiting: [@Sendable (Page) -> Void] = []
    private var pending: [Int: @Sendable (Error?) -> Void] = [:]

    // Followed to `PageOperation.completion`: converted.
    @available(*, renamed: "load(number:)")
    func load(number: Int, completion: @escaping @Sendable (Result<Page, Error>) -> Void) {
        let operation = PageOperation(number: number)
        operation.completion = completion
        queue.addOperation(operation)
    }

    /// Async alternative to `load(number:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func load(number: Int) async throws -> Page {
        try await withCheckedThrowingContinuation { continuation in
            load(number: number) { result in
                continuation.resume(with: result)
            }
        }
    }

    // Followed to `RetryingOperation.onFinish`, which two methods call: refused.
    func retry(completion: @escaping @Sendable (Error?) -> Void) {
        let operation = RetryingOperation()
        operation.onFinish = completion
        queue.addOperation(operation)
    }

    // Kept in a collection or a dictionary: nothing to follow, refused.
    func waitForPage(completion: @escaping @Sendable (Page) -> Void) {
        waiting.append(completion)
    }

    func send(id: Int, completion: @escaping @Sendable (Error?) -> Void) {
        pending[id] = completion
    }
}
