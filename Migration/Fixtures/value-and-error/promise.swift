import Foundation
import Vow

struct Page: Sendable {
    let items: [String]
}

struct FeedLoader {
    let pageSize: Int

    // Always passes a page (possibly empty) and sometimes an error.
    func loadPage(_ number: Int, completion: @escaping @Sendable (Page, Error?) -> Void) {
        completion(Page(items: Array(repeating: "item", count: pageSize)), nil)
    }

    /// Promise-based alternative to `loadPage(_:completion:)`, added by vow-migrate.
    func loadPage(_ number: Int) -> Promise<Page> {
        Promise { seal in
            loadPage(number) { value, error in
                seal.resolve(value, error)
            }
        }
    }
}
