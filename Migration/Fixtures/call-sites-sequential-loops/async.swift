import Dispatch

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

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
    @available(*, renamed: "upload(_:)")
    func upload(_ photo: String, completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
        let answer = Plan.next()
        Plan.answer {
            completion(answer == .failure ? .failure(ServiceError.down) : .success(photo.count))
        }
    }

    /// Async alternative to `upload(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func upload(_ photo: String) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            upload(photo) { result in
                continuation.resume(with: result)
            }
        }
    }

    /// `.neither` answers with neither a page nor an error.
    @available(*, renamed: "page(_:)")
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

    /// Async alternative to `page(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func page(_ number: Int) async throws -> Page {
        try await withCheckedThrowingContinuation { continuation in
            page(number) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "page(_:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "ping()")
    func ping(completion: @escaping @Sendable (Error?) -> Void) {
        let answer = Plan.next()
        Plan.answer { completion(answer == .failure ? ServiceError.down : nil) }
    }

    /// Async alternative to `ping(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func ping() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            ping { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
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
        Task { [self] in
            var nextIndex: Int? = 0
            while let index = nextIndex {
                nextIndex = nil
                guard index < photos.count else {
                    self.show("uploaded \(photos.count) photos")
                    return
                }
                log("uploading \(photos[index])")
                let result: Result<Int, Error>
                do {
                    result = .success(try await backend.upload(photos[index]))
                } catch {
                    result = .failure(error)
                }
                switch result {
                case .success(let size):
                    self.log("\(photos[index]): \(size) bytes")
                    nextIndex = index + 1
                case .failure(let error):
                    self.show("stopped at \(photos[index]): \(error)")
                }
            }
        }
    }

    /// Every page, from `first` on, skipping the one the screen says; a page with no more stops.
    func loadPages(from first: Int) {
        Task { [self] in
            var nextTurn: (number: Int, collected: [String])? = (first, [])
            while let turn = nextTurn {
                nextTurn = nil
                let (number, collected) = turn
                if number == skippedPage {
                    self.log("skipping page \(number)")
                    nextTurn = (number + 1, collected)
                    continue
                }
                let page: Page?
                let error: Error?
                do {
                    page = try await backend.page(number)
                    error = nil
                } catch let caught {
                    page = nil
                    error = String(describing: type(of: caught)) == "NeitherValueNorError" ? nil : caught
                }
                if let error {
                    self.show("page \(number) failed: \(error)")
                    return
                }
                guard let page else {
                    self.show("page \(number) was empty; kept \(collected)")
                    return
                }
                let all = collected + page.items
                if page.hasMore {
                    nextTurn = (number + 1, all)
                    continue
                }
                self.show("pages: \(all)")
            }
        }
    }

    /// Uploads the photos it is given until one fails, holding `self` weakly in the callback
    /// (the local function holds it anyway: the capture list reads `self` from it).
    func uploadUntilFailure(_ photos: [String]) {
        Task { [self] in
            var nextIndex: Int? = 0
            while let index = nextIndex {
                nextIndex = nil
                if index == photos.count {
                    show("no failure in \(photos.count)")
                    return
                }
                let result: Result<Int, Error>
                do {
                    result = .success(try await backend.upload(photos[index]))
                } catch {
                    result = .failure(error)
                }
                guard case .failure(let error) = result else {
                    log("\(photos[index]) went up")
                    nextIndex = index + 1
                    continue
                }
                show("\(photos[index]) failed: \(error)")
            }
        }
    }

    private var queued: [String] = []

    /// Sends the photos one after the other through a method calling itself.
    func sendQueued(_ photos: [String]) {
        queued = photos
        sendNext(sent: 0)
    }

    private func sendNext(sent: Int) {
        Task { [self] in
            var nextSent: Int? = sent
            while let sent = nextSent {
                nextSent = nil
                guard let photo = queued.first else {
                    show("sent \(sent)")
                    return
                }
                let result: Result<Int, Error>
                do {
                    result = .success(try await backend.upload(photo))
                } catch {
                    result = .failure(error)
                }
                self.queued.removeFirst()
                if case .failure(let error) = result {
                    self.log("\(error)")
                    self.show("\(photo) failed after \(sent)")
                    return
                }
                nextSent = sent + 1
            }
        }
    }

    /// Pings until the backend answers, three times at most.
    func waitForBackend() {
        let attempts = Attempts()
        Task { [self] in
            var again = true
            while again {
                again = false
                attempts.count += 1
                let error: Error?
                do {
                    try await backend.ping()
                    error = nil
                } catch let caught {
                    error = caught
                }
                if error != nil, attempts.count < 3 {
                    self.log("attempt \(attempts.count) failed")
                    again = true
                } else {
                    self.show(error == nil ? "backend up after \(attempts.count)" : "backend down")
                }
            }
        }
    }
}
