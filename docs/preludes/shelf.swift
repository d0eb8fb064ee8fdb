// Hidden prelude for Migration/README.md's fan-out blocks: a view model whose `loadShelf` the
// blocks show before and after vow-migrate, a service with a completion handler plus the promise
// and async alternatives vow-migrate adds beside it, and the serial executor the async form adds.
import Dispatch
import Vow

struct Item: Sendable {
    let id: Int
}

final class CatalogService: Sendable {
    func item(_ id: Int, completion: @escaping @Sendable (Swift.Result<Item, any Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Item(id: id))) }
    }

    func item(_ id: Int) -> Promise<Item> {
        Promise { seal in item(id) { seal.resolve($0) } }
    }

    func item(_ id: Int) async throws -> Item {
        try await withCheckedThrowingContinuation { continuation in item(id) { continuation.resume(with: $0) } }
    }
}

final class ShelfViewModel: @unchecked Sendable {
    let service = CatalogService()
    var items: [Item] = []
    var failures = 0
    func show(_ line: String) { print(line) }
}

final class FanOutExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "FanOutExecutor")
    private var jobsRun = 0
    private var movedBack: UnsafeContinuation<Void, Never>?

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            self.jobsRun += 1
            job.runSynchronously(on: self.asUnownedTaskExecutor())
            if let movedBack = self.movedBack {
                self.movedBack = nil
                movedBack.resume()
            }
        }
    }

    func answer<T>(_ call: () async -> T) async -> T {
        let job = jobsRun
        let value = await call()
        if jobsRun == job {
            await withUnsafeContinuation { movedBack = $0 }
        }
        return value
    }
}
