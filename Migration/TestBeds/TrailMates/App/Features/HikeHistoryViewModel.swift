import Foundation

/// The hiker's past hikes, all pages, newest first; and deleting one.
@MainActor
final class HikeHistoryViewModel {
    private let service: HikeService
    private(set) var hikes: [Hike] = []
    var onChange: (([Hike]) -> Void)?
    var onError: ((String) -> Void)?

    init(service: HikeService = .shared) {
        self.service = service
    }

    /// Pages until an empty one; a failing page keeps what came before and says so.
    func loadAll() {
        hikes = []
        loadPage(1)
    }

    private func loadPage(_ page: Int) {
        service.fetchHikes(page: page) { result in
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let more) where more.isEmpty:
                    self.onChange?(self.hikes)
                case .success(let more):
                    self.hikes += more
                    self.loadPage(page + 1)
                case .failure(let error):
                    self.onChange?(self.hikes)
                    self.onError?("Only \(self.hikes.count) hikes loaded: \(describe(error))")
                }
            }
        }
    }

    func delete(_ hike: Hike) {
        service.deleteHike(id: hike.id) { error in
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                guard error == nil else {
                    self.onError?(describe(error!))
                    return
                }
                self.hikes.removeAll { $0.id == hike.id }
                self.onChange?(self.hikes)
            }
        }
    }

    /// Deletes several hikes at once (the edit mode's "Delete selected").
    func delete(_ selected: [Hike]) {
        let group = DispatchGroup()
        let failures = LockedDictionary<Int, String>()
        for hike in selected {
            group.enter()
            service.deleteHike(id: hike.id) { error in
                if let error { failures[hike.id] = describe(error) }
                group.leave()
            }
        }
        group.notify(queue: .global()) {
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.hikes.removeAll { hike in selected.contains(hike) && failures[hike.id] == nil }
                self.onChange?(self.hikes)
                if failures.count > 0 {
                    self.onError?("\(failures.count) hikes could not be deleted")
                }
            }
        }
    }
}
