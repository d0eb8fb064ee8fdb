import Foundation

struct Item: Sendable {
    let id: Int
}

final class ItemClient: @unchecked Sendable {
    func fetchLegacy(id: Int, completion: @escaping @Sendable (Result<Item, Error>) -> Void) {
        completion(.success(Item(id: id)))
    }

    // One clause is compiled: each calls the handler once, or hands it on.
    func fetch(id: Int, completion: @escaping @Sendable (Result<Item, Error>) -> Void) {
        #if compiler(>=5.5.2)
        completion(.success(Item(id: id)))
        #elseif DEBUG
        fetchLegacy(id: id, completion: completion)
        #else
        fetchLegacy(id: id) { result in
            completion(result)
        }
        #endif
    }

    // Nested clauses inside a callback the body passes on.
    func refresh(id: Int, completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async {
            #if os(Linux)
            #if DEBUG
            completion(nil)
            #else
            completion(URLError(.badURL))
            #endif
            #else
            completion(nil)
            #endif
        }
    }

    // A clause that answers early, then the call after it.
    func remove(id: Int, completion: @escaping @Sendable (Error?) -> Void) {
        #if DEBUG
        guard id > 0 else {
            completion(URLError(.badURL))
            return
        }
        #endif
        completion(nil)
    }

    // Switch cases inside a clause are alternatives too.
    func count(kind: Int, completion: @escaping @Sendable (Int) -> Void) {
        switch kind {
        case 0:
            completion(0)
        #if DEBUG
        case 1:
            completion(1)
        #endif
        default:
            completion(2)
        }
    }

    // No `#else`: a build without DEBUG never calls it.
    func debugOnly(completion: @escaping @Sendable (Error?) -> Void) {
        #if DEBUG
        completion(nil)
        #endif
    }
}
