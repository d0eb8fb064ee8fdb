import Dispatch
import Foundation
import Vow

/// The search screen: suggestions while typing, paged results, recent and popular queries.
final class SearchViewModel: @unchecked Sendable {
    let search: SearchService
    let store: Store
    private let lock = NSLock()
    private var results: [Post] = []

    init(search: SearchService, store: Store) {
        self.search = search
        self.store = store
    }

    func log(_ text: String) {
        EffectTrace.shared.record("Search: \(text)", final: false)
    }

    func show(_ text: String) {
        EffectTrace.shared.record("Search: \(text)", final: true)
    }

    func collect(_ posts: [Post]) {
        lock.lock()
        results += posts
        lock.unlock()
    }

    // The best suggestion, then its first two pages of results, shown together on the main
    // queue; the suggestions and the first page are read at the end.
    func find(_ text: String) {
        search.suggestions(for: text) { [unowned self] suggestions in
            self.log("\(suggestions.count) suggestions")
            self.search.search(suggestions[0], page: 0) { [unowned self] result in
                switch result {
                case .success(let firstPage):
                    self.collect(firstPage)
                    self.search.search(suggestions[0], page: 1) { [unowned self] result in
                        switch result {
                        case .success(let secondPage):
                            DispatchQueue.main.async { [unowned self] in
                                self.show("\(firstPage.count + secondPage.count) results for \(suggestions[0])")
                            }
                        case .failure(let error):
                            self.show("search failed: \(error)")
                        }
                    }
                case .failure(let error):
                    self.show("search failed: \(error)")
                }
            }
        }
    }

    // The most recent query, searched again.
    func repeatLastSearch() {
        search.recentQueries { queries, error in
            if let error { self.show("no history: \(error)"); return }
            self.search.search(queries![0], page: 0) { result in
                switch result {
                case .success(let posts): self.show("\(posts.count) results for \(queries![0]) again")
                case .failure(let error): self.show("search failed: \(error)")
                }
            }
        }
    }

    // Suggestions only: one callback that cannot fail.
    func typeahead(_ prefix: String) {
        search.suggestions(for: prefix) { suggestions in
            self.show(suggestions.isEmpty ? "no suggestions" : suggestions.joined(separator: " | "))
        }
    }

    // One search per query: a loop around callbacks, left alone.
    func searchEach(_ queries: [String]) {
        for query in queries {
            search.search(query, page: 0) { result in
                switch result {
                case .success(let posts): self.show("\(query): \(posts.count)")
                case .failure(let error): self.show("\(query): \(error)")
                }
            }
        }
    }

    // A second search only when the first finds nothing: left alone.
    func searchWithWildcard(_ text: String) {
        search.search(text, page: 5) { result in
            switch result {
            case .success(let posts):
                if posts.isEmpty {
                    self.search.search(text + "*", page: 0) { result in
                        switch result {
                        case .success(let more): self.show("\(more.count) with a wildcard")
                        case .failure(let error): self.show("wildcard failed: \(error)")
                        }
                    }
                } else {
                    self.show("\(posts.count) results")
                }
            case .failure(let error):
                self.show("search failed: \(error)")
            }
        }
    }

    // No history at all is not an error here: read as optional, left alone.
    func recentOrNothing() {
        search.recentQueries { queries, error in
            if let error { self.show("history failed: \(error)"); return }
            self.show(queries.map { $0.joined(separator: ", ") } ?? "no history yet")
        }
    }

    // Logged before and after the call: async form leaves it alone.
    func prepareSuggestions(_ prefix: String) {
        log("typing \(prefix)")
        search.suggestions(for: prefix) { suggestions in
            self.show("\(suggestions.count) ready")
        }
        log("suggestions requested")
    }

    // Clears the stored history, then counts what is left.
    func clearHistory() {
        store.save(Data(), for: "history") { error in
            if let error {
                self.show("history kept: \(error)")
                return
            }
            self.store.count { count in
                self.show("history cleared, \(count) stored")
            }
        }
    }

    // An existing promise chain.
    func showPopular() {
        firstly {
            search.popular()
        }.map { queries in
            queries.first ?? "nothing"
        }.done { top in
            self.show("popular: \(top)")
        }.catch { error in
            self.show("popular failed: \(error)")
        }
    }
}
