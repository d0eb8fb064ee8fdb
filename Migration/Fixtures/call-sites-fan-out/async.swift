import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

struct Item: Sendable {
    let id: Int
    let title: String
}

/// A catalog service in the callback style; every answer comes later, on another queue.
final class CatalogService: Sendable {
    @available(*, renamed: "item(_:)")
    func item(_ id: Int, completion: @escaping @Sendable (Result<Item, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Item(id: id, title: "Item \(id)"))) }
    }

    /// Async alternative to `item(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func item(_ id: Int) async throws -> Item {
        try await withCheckedThrowingContinuation { continuation in
            item(id) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "thumbnail(for:)")
    func thumbnail(for id: Int, completion: @escaping @Sendable (Data?, Error?) -> Void) {
        DispatchQueue.global().async { completion(Data([UInt8(id)]), nil) }
    }

    /// Async alternative to `thumbnail(for:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func thumbnail(for id: Int) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            thumbnail(for: id) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "thumbnail(for:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "markRead(_:)")
    func markRead(_ id: Int, completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async { completion(nil) }
    }

    /// Async alternative to `markRead(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func markRead(_ id: Int) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            markRead(id) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    @available(*, renamed: "count(of:)")
    func count(of shelf: String, completion: @escaping @Sendable (Int) -> Void) {
        DispatchQueue.global().async { completion(shelf.count) }
    }

    /// Async alternative to `count(of:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func count(of shelf: String) async -> Int {
        await withCheckedContinuation { continuation in
            count(of: shelf) { value in
                continuation.resume(returning: value)
            }
        }
    }
}

final class ShelfViewModel: @unchecked Sendable {
    let service = CatalogService()
    var items: [Item] = []
    var failures = 0

    func show(_ text: String) {
        print(text)
    }

    // A group counting the calls: results go to a property, the notify block runs on main.
    func loadShelf(_ ids: [Int]) {
        items = []
        Task {
            let executor = FanOutExecutor()
            await withTaskExecutorPreference(executor) {
                await withTaskGroup { group in
                    for id in ids {
                        group.addTask {
                            await executor.answer {
                                do { return (id, Swift.Result<_, any Error>.success(try await self.service.item(id))) } catch { return (id, .failure(error)) }
                            }
                        }
                    }
                    for await (id, outcome) in group {
                        switch outcome {
                        case .success(let item):
                            self.items.append(item)
                        case .failure(let error):
                            self.failures += 1
                            self.show("item \(id) failed: \(error)")
                        }
                    }
                }
            }
            await MainActor.run {
                self.show("\(self.items.count) items, \(self.failures) failed")
            }
        }
    }

    // `leave()` closing each branch, an early `return`, `[weak self]`.
    func loadThumbnails(_ ids: [Int], from catalog: CatalogService) {
        Task { [weak self] in
            let executor = FanOutExecutor()
            await withTaskExecutorPreference(executor) {
                await withTaskGroup { group in
                    for id in ids where id > 0 {
                        group.addTask {
                            await executor.answer {
                                do { return (id, Swift.Result<_, any Error>.success(try await catalog.thumbnail(for: id))) } catch { return (id, .failure(error)) }
                            }
                        }
                    }
                    for await (id, result) in group {
                        switch result {
                        case .success(let data):
                            self?.show("thumbnail \(id): \(data.count) bytes")
                        case .failure(let error):
                            self?.show("thumbnail \(id) failed: \(error)")
                        }
                    }
                }
            }
            await MainActor.run { [weak self] in
                self?.show("thumbnails done")
            }
        }
    }

    // `defer { group.leave() }` first.
    func markAllRead(_ ids: [Int]) {
        Task {
            let executor = FanOutExecutor()
            await withTaskExecutorPreference(executor) {
                await withTaskGroup { group in
                    for id in ids {
                        group.addTask {
                            await executor.answer {
                                do { try await self.service.markRead(id); return (id, Swift.Result<Void, any Error>.success(())) } catch { return (id, .failure(error)) }
                            }
                        }
                    }
                    for await (id, result) in group {
                        switch result {
                        case .success:
                            self.show("read \(id)")
                        case .failure(let error):
                            self.show("could not mark \(id): \(error)")
                        }
                    }
                }
            }
            await MainActor.run {
                self.show("all marked")
            }
        }
    }

    // Callbacks that ignore how their call ended; the notify block on a global queue.
    func prefetch(_ ids: [Int]) {
        Task {
            let executor = FanOutExecutor()
            await withTaskExecutorPreference(executor) {
                await withTaskGroup { group in
                    for id in ids {
                        group.addTask {
                            await executor.answer {
                                _ = try? await self.service.item(id)
                                return id
                            }
                        }
                    }
                    for await id in group {
                        self.show("fetched \(id)")
                    }
                }
            }
            self.show("prefetched")
        }
    }

    // A plain loop of calls, no group: each callback on its own.
    func countShelves(_ shelves: [String]) {
        Task {
            let executor = FanOutExecutor()
            await withTaskExecutorPreference(executor) {
                await withTaskGroup { group in
                    for shelf in shelves {
                        let name = shelf.uppercased()
                        group.addTask {
                            await executor.answer {
                                return (name, await self.service.count(of: shelf))
                            }
                        }
                    }
                    for await (name, count) in group {
                        self.show("\(name): \(count)")
                    }
                }
            }
        }
    }

    // Fire and forget, one call per element.
    func markShown(_ ids: [Int]) {
        Task {
            await withTaskExecutorPreference(FanOutExecutor()) {
                await withTaskGroup { group in
                    for id in ids {
                        group.addTask {
                            _ = try? await self.service.markRead(id)
                        }
                    }
                }
            }
        }
    }
}

/// Runs the jobs of the tasks that prefer it one at a time, in the order they arrive, added by
/// vow-migrate: the children of a fan-out's task group make their calls in loop order, and
/// finish in the order the calls answered, as the callbacks they replace ran.
fileprivate final class FanOutExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "FanOutExecutor")
    // Both are read and written on `queue` only.
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

    /// Makes a child's call. A call answered before the child suspended returns in the job
    /// that made it, ahead of children answered earlier whose jobs wait in the queue: that
    /// child goes to the back of the queue first.
    func answer<T>(_ call: () async -> T) async -> T {
        let job = jobsRun
        let value = await call()
        if jobsRun == job {
            await withUnsafeContinuation { movedBack = $0 }
        }
        return value
    }
}
