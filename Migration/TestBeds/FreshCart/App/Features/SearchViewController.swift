import Foundation
import PromiseKit

/// Search as you type: each keystroke waits a moment, and a newer keystroke makes the older
/// search moot (its request is cancelled, and a cancelled search shows nothing).
final class SearchViewController: ViewController, @unchecked Sendable {
    let results = TableView(name: "search.results")
    let status = Label(name: "search.status")
    let suggestions = Label(name: "search.suggestions")
    private let service: SearchService
    private let lock = NSLock()
    private var latestQuery = ""

    init(service: SearchService = .shared) {
        self.service = service
        super.init(title: "Search")
    }

    /// The shopper typed; `text` is the whole field.
    func textDidChange(_ text: String) {
        lock.lock(); latestQuery = text; lock.unlock()
        guard text.count >= 2 else {
            results.reload([])
            return
        }
        service.debouncedSearch(text, isCurrent: { [weak self] in
            self?.isLatest(text) ?? false
        }).done { [weak self] products in
            guard let self, self.isLatest(text) else { return }
            self.results.reload(products.map(\.name))
            self.status.text = products.isEmpty ? "No results for \(text)" : "\(products.count) results"
        }.catch { [weak self] error in
            self?.status.text = describe(error)
        }
    }

    /// Search right away (the Search key), or show it was cancelled.
    func submit(_ text: String) {
        lock.lock(); latestQuery = text; lock.unlock()
        service.search(text).done { products in
            self.results.reload(products.map(\.name))
        }.catch(policy: .allErrors) { error in
            if case PMKError.cancelled = error {
                self.status.text = "Search for \(text) cancelled"
            } else {
                self.status.text = describe(error)
            }
        }
    }

    func cancelSearch() {
        service.cancelAll()
    }

    func loadSuggestions(_ text: String) {
        service.suggestions(for: text).done { names in
            self.suggestions.text = names.isEmpty ? "no suggestions" : names.joined(separator: ", ")
        }
    }

    private func isLatest(_ text: String) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return latestQuery == text
    }
}
