import Foundation

struct Item {
    let id: Int
}

final class Handle {
    func cancel() {}
}

/// A plain class, not Sendable, with non-Sendable handlers and a handle that is not Sendable either.
class Repository {
    var items: [Int: Item] = [:]

    func item(id: Int, completion: @escaping (Item?, Error?) -> Void) {
        completion(items[id], nil)
    }

    func load(completion: @escaping (Result<[Item], Error>) -> Void) -> Handle {
        completion(.success(Array(items.values)))
        return Handle()
    }

    func count(completion: @escaping (Int) -> Void) {
        completion(items.count)
    }

    func clear(completion: @escaping (Error?) -> Void) {
        items = [:]
        completion(nil)
    }
}

@MainActor
final class ViewModel {
    var title = ""

    func refresh(completion: @escaping (String?, Error?) -> Void) {
        completion(title, nil)
    }
}
