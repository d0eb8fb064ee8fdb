import Foundation

protocol SyncEngineDelegate: AnyObject {
    func syncEngine(_ engine: SyncEngine, didLoadPage page: Int, trailCount: Int)
}

/// Brings the device up to date: every page of trails, the conditions of each trail, and the
/// tracks of hikes recorded offline. One sync at a time; `cancel()` stops it between requests.
final class SyncEngine: @unchecked Sendable {
    static let shared = SyncEngine(trails: .shared, hikes: .shared)

    struct Summary: Sendable, Equatable {
        var trails: Int
        var openTrails: Int
        var uploadedTracks: Int
    }

    private let trails: TrailService
    private let hikes: HikeService
    private let lock = NSLock()
    private var running = false
    private var cancelled = false
    weak var delegate: SyncEngineDelegate?

    init(trails: TrailService, hikes: HikeService) {
        self.trails = trails
        self.hikes = hikes
    }

    var isCancelled: Bool {
        lock.lock(); defer { lock.unlock() }
        return cancelled
    }

    func cancel() {
        lock.lock(); cancelled = true; lock.unlock()
    }

    private func begin() -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard !running else { return false }
        running = true
        cancelled = false
        return true
    }

    private func end() {
        lock.lock(); running = false; lock.unlock()
    }

    // MARK: - Full sync

    func sync(pendingHikes: [Hike], completion: @escaping @Sendable (Result<Summary, Error>) -> Void) {
        guard begin() else {
            completion(.failure(SyncError.alreadyRunning))
            return
        }
        loadAllTrails { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let error):
                self.end()
                completion(.failure(error))
            case .success(let allTrails):
                self.loadConditions(for: allTrails) { conditions in
                    if self.isCancelled {
                        self.end()
                        completion(.failure(SyncError.cancelled))
                        return
                    }
                    let open = conditions.filter(\.isOpen).count
                    self.uploadTracks(of: pendingHikes) { uploaded, error in
                        self.end()
                        if let error = error {
                            completion(.failure(error))
                        } else {
                            completion(.success(Summary(trails: allTrails.count, openTrails: open, uploadedTracks: uploaded)))
                        }
                    }
                }
            }
        }
    }

    // MARK: - Paging

    /// Every page, one after the other: the server says on each page whether another follows.
    func loadAllTrails(completion: @escaping @Sendable (Result<[Trail], Error>) -> Void) {
        loadPage(1, collected: [], completion: completion)
    }

    private func loadPage(_ index: Int, collected: [Trail], completion: @escaping @Sendable (Result<[Trail], Error>) -> Void) {
        if isCancelled {
            completion(.failure(SyncError.cancelled))
            return
        }
        trails.fetchTrails(page: index) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let page):
                let soFar = collected + page.trails
                self.delegate?.syncEngine(self, didLoadPage: index, trailCount: soFar.count)
                if page.hasMore {
                    self.loadPage(index + 1, collected: soFar, completion: completion)
                } else {
                    completion(.success(soFar))
                }
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    // MARK: - Fan-outs

    /// All conditions at once; the answers keep the order of `trails`.
    func loadConditions(for trails: [Trail], completion: @escaping @Sendable ([Conditions]) -> Void) {
        let group = DispatchGroup()
        let results = ResultsBox<Conditions>(count: trails.count)
        for (index, trail) in trails.enumerated() {
            group.enter()
            self.trails.conditions(for: trail.id) { conditions in
                results.set(conditions, at: index)
                group.leave()
            }
        }
        group.notify(queue: .global()) {
            completion(results.values)
        }
    }

    /// Uploads the tracks of every pending hike at once. Reports how many went up, and the
    /// first error (in the order of `hikes`) if any failed.
    func uploadTracks(of hikes: [Hike], completion: @escaping @Sendable (Int, Error?) -> Void) {
        guard !hikes.isEmpty else {
            completion(0, nil)
            return
        }
        let group = DispatchGroup()
        let errors = ResultsBox<Error?>(count: hikes.count)
        for (index, hike) in hikes.enumerated() {
            group.enter()
            self.hikes.uploadTrack([], for: hike) { error in
                errors.set(error, at: index)
                group.leave()
            }
        }
        group.notify(queue: .global()) {
            let failures = errors.values.compactMap { $0 }
            if failures.isEmpty {
                completion(hikes.count, nil)
            } else if failures.count == hikes.count {
                completion(0, failures[0])
            } else {
                completion(hikes.count - failures.count, SyncError.partial(failed: failures.count))
            }
        }
    }
}

/// Answers of a fan-out, each in the slot of the request that asked for it.
final class ResultsBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ value: Value, at index: Int) {
        lock.lock(); slots[index] = value; lock.unlock()
    }

    var values: [Value] {
        lock.lock(); defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}
