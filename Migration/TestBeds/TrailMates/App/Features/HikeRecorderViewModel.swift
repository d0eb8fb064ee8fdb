import Foundation

/// Finishing a hike: the server must accept it, then the track goes up, then the photos (all at
/// once), then the friends who came along are invited to see it.
final class HikeRecorderViewModel: @unchecked Sendable {
    enum Outcome: Equatable, Sendable {
        case saved(photos: Int, failedPhotos: Int)
        case tooShort
        case failed(String)
    }

    private let hikes: HikeService
    private let photos: PhotoService
    private let friends: FriendService
    private(set) var hike: Hike
    private(set) var points: [TrackPoint] = []
    var captions: [String] = []

    init(hike: Hike, hikes: HikeService = .shared, photos: PhotoService = .shared, friends: FriendService = .shared) {
        self.hike = hike
        self.hikes = hikes
        self.photos = photos
        self.friends = friends
    }

    func record(_ point: TrackPoint) {
        points.append(point)
    }

    func finish(completion: @escaping @Sendable (Outcome) -> Void) {
        hikes.finishHike(hike) { finished, error in
            guard finished, error == nil else {
                if let error {
                    completion(.failed(describe(error)))
                } else {
                    completion(.tooShort)
                }
                return
            }
            self.hike.isFinished = true
            self.hikes.uploadTrack(self.points, for: self.hike) { error in
                if let error = error {
                    completion(.failed("Track not saved: \(describe(error))"))
                    return
                }
                self.uploadPhotos { uploaded, failed in
                    NotificationHub.default.post(name: .hikeDidFinish, userInfo: ["hike": String(self.hike.id)])
                    completion(.saved(photos: uploaded, failedPhotos: failed))
                }
            }
        }
    }

    /// Every photo at once; counts what went up and what did not.
    func uploadPhotos(completion: @escaping @Sendable (Int, Int) -> Void) {
        let group = DispatchGroup()
        let outcomes = ResultsBox<Bool>(count: captions.count)
        for (index, caption) in captions.enumerated() {
            group.enter()
            photos.upload(photoAt: index, caption: caption, for: hike.id) { result in
                if case .success = result {
                    outcomes.set(true, at: index)
                } else {
                    outcomes.set(false, at: index)
                }
                group.leave()
            }
        }
        group.notify(queue: .main) {
            let uploaded = outcomes.values.filter { $0 }.count
            completion(uploaded, outcomes.values.count - uploaded)
        }
    }

    /// Invites each companion in turn (the server rate-limits invitations, so one at a time);
    /// reports who accepted and who declined.
    func invite(_ handles: [String], completion: @escaping @Sendable ([String], [String]) -> Void) {
        let answers = InviteAnswers()
        let friends = self.friends
        let hikeID = hike.id
        @Sendable func next(_ index: Int) {
            guard index < handles.count else {
                completion(answers.accepted, answers.declined)
                return
            }
            friends.invite(handles[index], to: hikeID) { ok, error in
                if ok {
                    answers.accept(handles[index])
                } else if error == nil {
                    answers.decline(handles[index])
                }
                next(index + 1)
            }
        }
        next(0)
    }
}

/// Who accepted and who declined, filled by one invitation answer after the other.
final class InviteAnswers: @unchecked Sendable {
    private let lock = NSLock()
    private var acceptedHandles: [String] = []
    private var declinedHandles: [String] = []

    func accept(_ handle: String) {
        lock.lock(); acceptedHandles.append(handle); lock.unlock()
    }

    func decline(_ handle: String) {
        lock.lock(); declinedHandles.append(handle); lock.unlock()
    }

    var accepted: [String] {
        lock.lock(); defer { lock.unlock() }
        return acceptedHandles
    }

    var declined: [String] {
        lock.lock(); defer { lock.unlock() }
        return declinedHandles
    }
}
