import Foundation

struct Item: Sendable {
    let id: Int
    let title: String
}

/// A catalog service in the callback style; every answer comes later, on another queue.
final class CatalogService: Sendable {
    func item(_ id: Int, completion: @escaping @Sendable (Result<Item, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Item(id: id, title: "Item \(id)"))) }
    }

    func thumbnail(for id: Int, completion: @escaping @Sendable (Data?, Error?) -> Void) {
        DispatchQueue.global().async { completion(Data([UInt8(id)]), nil) }
    }

    func markRead(_ id: Int, completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async { completion(nil) }
    }

    func count(of shelf: String, completion: @escaping @Sendable (Int) -> Void) {
        DispatchQueue.global().async { completion(shelf.count) }
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
        let group = DispatchGroup()
        for id in ids {
            group.enter()
            service.item(id) { result in
                switch result {
                case .success(let item):
                    self.items.append(item)
                case .failure(let error):
                    self.failures += 1
                    self.show("item \(id) failed: \(error)")
                }
                group.leave()
            }
        }
        group.notify(queue: .main) {
            self.show("\(self.items.count) items, \(self.failures) failed")
        }
    }

    // `leave()` closing each branch, an early `return`, `[weak self]`.
    func loadThumbnails(_ ids: [Int], from catalog: CatalogService) {
        let group = DispatchGroup()
        for id in ids where id > 0 {
            group.enter()
            catalog.thumbnail(for: id) { [weak self] data, error in
                if let error {
                    self?.show("thumbnail \(id) failed: \(error)")
                    group.leave()
                    return
                }
                self?.show("thumbnail \(id): \(data!.count) bytes")
                group.leave()
            }
        }
        group.notify(queue: DispatchQueue.main) { [weak self] in
            self?.show("thumbnails done")
        }
    }

    // `defer { group.leave() }` first.
    func markAllRead(_ ids: [Int]) {
        let group = DispatchGroup()
        for id in ids {
            group.enter()
            service.markRead(id) { error in
                defer { group.leave() }
                if let error {
                    self.show("could not mark \(id): \(error)")
                    return
                }
                self.show("read \(id)")
            }
        }
        group.notify(queue: .main) {
            self.show("all marked")
        }
    }

    // Callbacks that ignore how their call ended; the notify block on a global queue.
    func prefetch(_ ids: [Int]) {
        let group = DispatchGroup()
        for id in ids {
            group.enter()
            service.item(id) { _ in
                self.show("fetched \(id)")
                group.leave()
            }
        }
        group.notify(queue: .global()) {
            self.show("prefetched")
        }
    }

    // A plain loop of calls, no group: each callback on its own.
    func countShelves(_ shelves: [String]) {
        for shelf in shelves {
            let name = shelf.uppercased()
            service.count(of: shelf) { count in
                self.show("\(name): \(count)")
            }
        }
    }

    // Fire and forget, one call per element.
    func markShown(_ ids: [Int]) {
        for id in ids {
            service.markRead(id) { _ in }
        }
    }
}
