import Foundation
import Vow

struct Item: Sendable {
    let id: Int
    let title: String
}

/// A catalog service in the callback style; every answer comes later, on another queue.
final class CatalogService: Sendable {
    func item(_ id: Int, completion: @escaping @Sendable (Swift.Result<Item, Error>) -> Void) {
        DispatchQueue.global().async { completion(.success(Item(id: id, title: "Item \(id)"))) }
    }

    /// Promise-based alternative to `item(_:completion:)`, added by vow-migrate.
    func item(_ id: Int) -> Promise<Item> {
        Promise { seal in
            item(id) { result in
                seal.resolve(result)
            }
        }
    }

    func thumbnail(for id: Int, completion: @escaping @Sendable (Data?, Error?) -> Void) {
        DispatchQueue.global().async { completion(Data([UInt8(id)]), nil) }
    }

    /// Promise-based alternative to `thumbnail(for:completion:)`, added by vow-migrate.
    func thumbnail(for id: Int) -> Promise<Data> {
        Promise { seal in
            thumbnail(for: id) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    func markRead(_ id: Int, completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async { completion(nil) }
    }

    /// Promise-based alternative to `markRead(_:completion:)`, added by vow-migrate.
    func markRead(_ id: Int) -> Promise<Void> {
        Promise { seal in
            markRead(id) { error in
                seal.resolve(error)
            }
        }
    }

    func count(of shelf: String, completion: @escaping @Sendable (Int) -> Void) {
        DispatchQueue.global().async { completion(shelf.count) }
    }

    /// Promise-based alternative to `count(of:completion:)`, added by vow-migrate.
    func count(of shelf: String) -> Guarantee<Int> {
        Guarantee { resolve in
            count(of: shelf) { value in
                resolve(value)
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
        var group: [Guarantee<Void>] = []
        for id in ids {
            group.append(service.item(id).done(on: nil) { item in
                self.items.append(item)
            }.recover(on: nil) { error in
                self.failures += 1
                self.show("item \(id) failed: \(error)")
            })
        }
        when(guarantees: group).done(on: .main) {
            self.show("\(self.items.count) items, \(self.failures) failed")
        }
    }

    // `leave()` closing each branch, an early `return`, `[weak self]`.
    func loadThumbnails(_ ids: [Int], from catalog: CatalogService) {
        var group: [Guarantee<Void>] = []
        for id in ids where id > 0 {
            group.append(catalog.thumbnail(for: id).done(on: nil) { [weak self] data in
                self?.show("thumbnail \(id): \(data.count) bytes")
            }.recover(on: nil) { [weak self] error in
                self?.show("thumbnail \(id) failed: \(error)")
            })
        }
        when(guarantees: group).done(on: .main) { [weak self] in
            self?.show("thumbnails done")
        }
    }

    // `defer { group.leave() }` first.
    func markAllRead(_ ids: [Int]) {
        var group: [Guarantee<Void>] = []
        for id in ids {
            group.append(service.markRead(id).done(on: nil) {
                self.show("read \(id)")
            }.recover(on: nil) { error in
                self.show("could not mark \(id): \(error)")
            })
        }
        when(guarantees: group).done(on: .main) {
            self.show("all marked")
        }
    }

    // Callbacks that ignore how their call ended; the notify block on a global queue.
    func prefetch(_ ids: [Int]) {
        var group: [Guarantee<Void>] = []
        for id in ids {
            group.append(service.item(id).asVoid().recover(on: nil) { _ in }.done(on: nil) {
                self.show("fetched \(id)")
            })
        }
        when(guarantees: group).done(on: .global()) {
            self.show("prefetched")
        }
    }

    // A plain loop of calls, no group: each callback on its own.
    func countShelves(_ shelves: [String]) {
        for shelf in shelves {
            let name = shelf.uppercased()
            service.count(of: shelf).done(on: nil) { count in
                self.show("\(name): \(count)")
            }
        }
    }

    // Fire and forget, one call per element.
    func markShown(_ ids: [Int]) {
        for id in ids {
            service.markRead(id).recover(on: nil) { _ in }
        }
    }
}
