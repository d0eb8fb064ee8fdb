import Dispatch
import Vow

/// How the next call of a fake service answers: with its value or with an error, on a queue of
/// its own or before it returns.
enum Answer: Sendable {
    case value, failure, neither
}

enum ServiceError: Error {
    case down
}

final class Plan: @unchecked Sendable {
    nonisolated(unsafe) static var answers: [Answer] = []
    nonisolated(unsafe) static var synchronous = false

    static func next() -> Answer {
        answers.isEmpty ? .value : answers.removeFirst()
    }

    static func answer(_ body: @escaping @Sendable () -> Void) {
        if synchronous { body() } else { DispatchQueue.global().async(execute: body) }
    }
}

struct Page: Sendable {
    var items: [String]
    var hasMore: Bool
}

/// The photo backend, answering as the plan says.
final class PhotoBackend: Sendable {
    func upload(_ photo: String, completion: @escaping @Sendable (Swift.Result<Int, Error>) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            completion(answer == .failure ? .failure(ServiceError.down) : .success(photo.count))
        }
    }

    /// Promise-based alternative to `upload(_:completion:)`, added by vow-migrate.
    func upload(_ photo: String) -> Promise<Int> {
        Promise { seal in
            upload(photo) { result in
                seal.resolve(result)
            }
        }
    }

    /// `.neither` answers with neither a page nor an error.
    func page(_ number: Int, completion: @escaping @Sendable (Page?, Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            switch answer {
            case .value: completion(Page(items: ["p\(number)"], hasMore: number < 3), nil)
            case .failure: completion(nil, ServiceError.down)
            case .neither: completion(nil, nil)
            }
        }
    }

    /// Promise-based alternative to `page(_:completion:)`, added by vow-migrate.
    func page(_ number: Int) -> Promise<Page> {
        Promise { seal in
            page(number) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    func ping(completion: @escaping @Sendable (Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .failure ? ServiceError.down : nil) }
    }

    /// Promise-based alternative to `ping(completion:)`, added by vow-migrate.
    func ping() -> Promise<Void> {
        Promise { seal in
            ping { error in
                seal.resolve(error)
            }
        }
    }
}

final class Attempts: @unchecked Sendable {
    var count = 0
}

/// A screen starting each call from the previous one's callback: each path ends in one `show`.
final class AlbumScreen: @unchecked Sendable {
    let backend = PhotoBackend()
    let shown: @Sendable (String) -> Void
    var skippedPage = 0

    init(shown: @escaping @Sendable (String) -> Void) {
        self.shown = shown
    }

    func log(_ line: String) { print("log: \(line)") }
    func show(_ line: String) { shown(line) }

    /// One photo after the other; the first failure stops the loop.
    func uploadAll(_ photos: [String]) {
        @Sendable func next(_ index: Int) {
            guard index < photos.count else {
                self.show("uploaded \(photos.count) photos")
                return
            }
            log("uploading \(photos[index])")
            backend.upload(photos[index]).done(on: nil) { size in
                self.log("\(photos[index]): \(size) bytes")
                next(index + 1)
            }.catch(on: nil, policy: .allErrors) { error in
                self.show("stopped at \(photos[index]): \(error)")
            }
        }
        next(0)
    }

    /// Every page, from `first` on, skipping the one the screen says; a page with no more stops.
    func loadPages(from first: Int) {
        @Sendable func load(_ number: Int, collected: [String]) {
            if number == skippedPage {
                self.log("skipping page \(number)")
                load(number + 1, collected: collected)
                return
            }
            backend.page(number).done(on: nil) { page in
                let all = collected + page.items
                if page.hasMore {
                    load(number + 1, collected: all)
                    return
                }
                self.show("pages: \(all)")
            }.catch(on: nil, policy: .allErrors) { error in
                switch error {
                case PMKError.invalidCallingConvention:
                    self.show("page \(number) was empty; kept \(collected)")
                default:
                    self.show("page \(number) failed: \(error)")
                }
            }
        }
        load(first, collected: [])
    }

    /// Uploads the photos it is given until one fails, holding `self` weakly in the callback
    /// (the local function holds it anyway: the capture list reads `self` from it).
    func uploadUntilFailure(_ photos: [String]) {
        @Sendable func upload(_ index: Int) {
            if index == photos.count {
                show("no failure in \(photos.count)")
                return
            }
            backend.upload(photos[index]) { [weak self] result in
                guard let self else { return }
                guard case .failure(let error) = result else {
                    log("\(photos[index]) went up")
                    upload(index + 1)
                    return
                }
                show("\(photos[index]) failed: \(error)")
            }
        }
        upload(0)
    }

    private var queued: [String] = []

    /// Sends the photos one after the other through a method calling itself.
    func sendQueued(_ photos: [String]) {
        queued = photos
        sendNext(sent: 0)
    }

    private func sendNext(sent: Int) {
        guard let photo = queued.first else {
            show("sent \(sent)")
            return
        }
        backend.upload(photo) { result in
            self.queued.removeFirst()
            if case .failure(let error) = result {
                self.log("\(error)")
                self.show("\(photo) failed after \(sent)")
                return
            }
            self.sendNext(sent: sent + 1)
        }
    }

    /// Pings until the backend answers, three times at most.
    func waitForBackend() {
        let attempts = Attempts()
        @Sendable func attempt() {
            attempts.count += 1
            backend.ping { error in
                if error != nil, attempts.count < 3 {
                    self.log("attempt \(attempts.count) failed")
                    attempt()
                } else {
                    self.show(error == nil ? "backend up after \(attempts.count)" : "backend down")
                }
            }
        }
        attempt()
    }
}
