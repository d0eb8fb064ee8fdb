import Foundation

/// The trail list: the first page with the conditions of each trail, and search as you type.
@MainActor
final class TrailListViewModel {
    struct Row: Equatable {
        let trail: Trail
        var conditions: String
    }

    private let service: TrailService
    private(set) var rows: [Row] = []
    private(set) var nextPage = 1
    private var loading = false

    var onRowsChange: (([Row]) -> Void)?
    var onError: ((String) -> Void)?
    var onSearchResults: (([Trail]) -> Void)?

    init(service: TrailService = .shared) {
        self.service = service
    }

    /// The first page, then every trail's conditions at once; the rows appear when all are in.
    func load() {
        guard !loading else { return }
        loading = true
        service.fetchTrails(page: 1) { [weak self] result in
            guard let self = self else { return }
            let page: TrailPage
            switch result {
            case .success(let loaded):
                page = loaded
            case .failure(let error):
                DispatchQueue.main.async {
                    self.loading = false
                    self.onError?(describe(error))
                }
                return
            }
            let group = DispatchGroup()
            let summaries = LockedDictionary<Int, String>()
            for trail in page.trails {
                group.enter()
                self.service.conditions(for: trail.id) { conditions in
                    summaries[trail.id] = conditions.isOpen ? conditions.summary : "closed"
                    group.leave()
                }
            }
            group.notify(queue: .global()) {
                DispatchQueue.main.async {
                    self.loading = false
                    self.rows = page.trails.map { Row(trail: $0, conditions: summaries[$0.id] ?? "unknown") }
                    self.nextPage = page.hasMore ? 2 : 0
                    self.onRowsChange?(self.rows)
                }
            }
        }
    }

    /// The next page, appended; conditions load when the user opens a trail.
    func loadMore() {
        guard nextPage > 1, !loading else { return }
        loading = true
        service.fetchTrails(page: nextPage) { result in
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.loading = false
                switch result {
                case .success(let page):
                    self.rows += page.trails.map { Row(trail: $0, conditions: "tap to check") }
                    self.nextPage = page.hasMore ? self.nextPage + 1 : 0
                    self.onRowsChange?(self.rows)
                case .failure(let error):
                    self.onError?(describe(error))
                }
            }
        }
    }

    /// A new query cancels the last one; its `.cancelled` answer is dropped.
    func search(_ query: String) {
        guard query.count >= 2 else {
            onSearchResults?([])
            return
        }
        service.search(query) { result in
            switch result {
            case .success(let trails):
                DispatchQueue.main.async { self.onSearchResults?(trails) }
            case .failure(let error) where error.isCancellation:
                return
            case .failure(let error):
                DispatchQueue.main.async { self.onError?(error.userMessage) }
            }
        }
    }
}
