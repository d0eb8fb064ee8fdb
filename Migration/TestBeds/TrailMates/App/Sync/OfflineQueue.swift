import Foundation

/// Changes made offline, replayed in order once the app is online again. A change that fails
/// stops the replay: later changes may depend on it.
final class OfflineQueue: @unchecked Sendable {
    static let shared = OfflineQueue(users: .shared, trails: .shared, hikes: .shared)

    private let users: UserService
    private let trails: TrailService
    private let hikes: HikeService
    private let lock = NSLock()
    private var pending: [PendingChange] = []

    init(users: UserService, trails: TrailService, hikes: HikeService) {
        self.users = users
        self.trails = trails
        self.hikes = hikes
    }

    func enqueue(_ change: PendingChange) {
        lock.lock(); pending.append(change); lock.unlock()
    }

    /// Signing out drops what was not sent.
    func discardAll() {
        lock.lock(); pending = []; lock.unlock()
    }

    var count: Int {
        lock.lock(); defer { lock.unlock() }
        return pending.count
    }

    /// Replays every pending change; reports how many went through and the error that stopped
    /// the replay, if one did.
    func replay(completion: @escaping @Sendable (Int, Error?) -> Void) {
        lock.lock(); let changes = pending; lock.unlock()
        replay(changes, from: 0, completion: completion)
    }

    private func replay(_ changes: [PendingChange], from index: Int, completion: @escaping @Sendable (Int, Error?) -> Void) {
        guard index < changes.count else {
            completion(changes.count, nil)
            return
        }
        apply(changes[index]) { [weak self] error in
            guard let self else { return }
            if let error {
                completion(index, error)
                return
            }
            self.lock.lock(); self.pending.removeFirst(); self.lock.unlock()
            self.replay(changes, from: index + 1, completion: completion)
        }
    }

    private func apply(_ change: PendingChange, completion: @escaping VoidCompletion) {
        switch change {
        case .rename(let name):
            users.updateDisplayName(name, completion: completion)
        case .comment(let trailID, let text):
            trails.postComment(text, on: trailID, completion: completion)
        case .deleteHike(let id):
            hikes.deleteHike(id: id, completion: completion)
        }
    }

    /// Replays only the comments, all at once: they do not depend on each other.
    func replayComments(completion: @escaping @Sendable (Int) -> Void) {
        lock.lock(); let comments = pending.compactMap { change -> (Int, String)? in
            if case .comment(let trailID, let text) = change { return (trailID, text) }
            return nil
        }
        lock.unlock()
        let group = DispatchGroup()
        let posted = ResultsBox<Bool>(count: comments.count)
        for (index, comment) in comments.enumerated() {
            group.enter()
            trails.postComment(comment.1, on: comment.0) { error in
                posted.set(error == nil, at: index)
                group.leave()
            }
        }
        group.wait()
        completion(posted.values.filter { $0 }.count)
    }
}
