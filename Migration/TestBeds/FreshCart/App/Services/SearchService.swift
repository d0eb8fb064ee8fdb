import Foundation
import PromiseKit

/// Product search. A new query cancels the one in flight; results come from the faster of the
/// search index and the catalog mirror.
final class SearchService: @unchecked Sendable {
    static let shared = SearchService()
    private let http: HTTPClient
    private let lock = NSLock()
    private var cancelInFlight: (() -> Void)?

    init(http: HTTPClient = .shared) {
        self.http = http
    }

    func search(_ text: String) -> Promise<[Product]> {
        let (promise, cancel) = http.cancellableSend(.search(text))
        lock.lock()
        let previous = cancelInFlight
        cancelInFlight = cancel
        lock.unlock()
        previous?()
        return promise
            .decoded(as: ListEnvelope<Product>.self, what: "search")
            .map { $0.items }
    }

    /// Waits a moment after the last keystroke before searching, so that typing "milk" sends
    /// one request instead of four.
    func debouncedSearch(_ text: String, isCurrent: @escaping @Sendable () -> Bool) -> Promise<[Product]> {
        return after(.milliseconds(20)).then { () -> Promise<[Product]> in
            guard isCurrent() else { throw PMKError.cancelled }
            return self.search(text)
        }
    }

    /// Suggestions never fail: an empty list when the server does not answer in time.
    func suggestions(for text: String) -> Guarantee<[String]> {
        let request = APIClient.shared.list(.search(text), of: Product.self)
            .mapValues { $0.name }
            .timeout(seconds: 0.3)
        return request.recover { _ in Guarantee.value([]) }
    }

    func cancelAll() {
        lock.lock()
        let cancel = cancelInFlight
        cancelInFlight = nil
        lock.unlock()
        cancel?()
    }
}
