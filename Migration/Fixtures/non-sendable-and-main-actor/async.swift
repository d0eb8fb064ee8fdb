import Foundation
import Vow

struct Item {
    let id: Int
}

final class Handle {
    func cancel() {}
}

/// A plain class, not Sendable, with non-Sendable handlers and a handle that is not Sendable either.
class Repository {
    var items: [Int: Item] = [:]

    @available(*, renamed: "item(id:)")
    func item(id: Int, completion: @escaping (Item?, Error?) -> Void) {
        completion(items[id], nil)
    }

    /// Async alternative to `item(id:completion:)`, added by vow-migrate.
    func item(id: Int) async throws -> Item {
        try await withCheckedThrowingContinuation { continuation in
            item(id: id) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: PMKError.invalidCallingConvention)
                }
            }
        }
    }

    @available(*, renamed: "load()")
    func load(completion: @escaping (Swift.Result<[Item], Error>) -> Void) -> Handle {
        completion(.success(Array(items.values)))
        return Handle()
    }

    /// Async alternative to `load(completion:)`, added by vow-migrate.
    func load() async throws -> [Item] {
        let cancellationSource = CancellationTokenSource()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                nonisolated(unsafe) let task = load { result in
                    continuation.resume(with: result)
                }
                cancellationSource.token.register { task.cancel() }
            }
        } onCancel: {
            cancellationSource.cancel()
        }
    }

    @available(*, renamed: "count()")
    func count(completion: @escaping (Int) -> Void) {
        completion(items.count)
    }

    /// Async alternative to `count(completion:)`, added by vow-migrate.
    func count() async -> Int {
        await withCheckedContinuation { continuation in
            count { value in
                continuation.resume(returning: value)
            }
        }
    }

    @available(*, renamed: "clear()")
    func clear(completion: @escaping (Error?) -> Void) {
        items = [:]
        completion(nil)
    }

    /// Async alternative to `clear(completion:)`, added by vow-migrate.
    func clear() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            clear { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }
}

@MainActor
final class ViewModel {
    var title = ""

    @available(*, renamed: "refresh()")
    func refresh(completion: @escaping (String?, Error?) -> Void) {
        completion(title, nil)
    }

    /// Async alternative to `refresh(completion:)`, added by vow-migrate.
    func refresh() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            refresh { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: PMKError.invalidCallingConvention)
                }
            }
        }
    }
}
