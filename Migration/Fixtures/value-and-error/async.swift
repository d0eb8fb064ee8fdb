import Foundation

struct Page: Sendable {
    let items: [String]
}

struct FeedLoader {
    let pageSize: Int

    // Always passes a page (possibly empty) and sometimes an error.
    @available(*, renamed: "loadPage(_:)")
    func loadPage(_ number: Int, completion: @escaping @Sendable (Page, Error?) -> Void) {
        completion(Page(items: Array(repeating: "item", count: pageSize)), nil)
    }

    /// Async alternative to `loadPage(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func loadPage(_ number: Int) async throws -> Page {
        try await withCheckedThrowingContinuation { continuation in
            loadPage(number) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: value)
                }
            }
        }
    }
}
