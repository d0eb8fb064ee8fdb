// LegacyService.swift: the kind of callback code vow-migrate is for. Try:
//
//     scripts/vow-migrate Migration/Samples/LegacyService.swift --to promise
//     scripts/vow-migrate Migration/Samples/LegacyService.swift --to async
//     scripts/vow-migrate Migration/Samples/LegacyService.swift --to promise --stage all   # call sites too

import Foundation

struct Account: Sendable {
    let id: Int
    let email: String
}

struct Avatar: Sendable {
    let pixels: Data
}

struct Dashboard: Sendable {
    let account: Account
    let avatar: Avatar
}

enum ServiceError: Error {
    case notFound
    case unauthorized
}

/// A request in flight that the caller may cancel, like `URLSessionDataTask`.
final class RequestHandle: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }
}

typealias AvatarCompletion = @Sendable (Result<Avatar, ServiceError>) -> Void

final class LegacyService: @unchecked Sendable {
    private let queue = DispatchQueue(label: "legacy-service")
    private var accounts: [Int: Account] = [1: Account(id: 1, email: "ada@example.com")]

    /// Looks an account up; exactly one of the two arguments is non-nil.
    func account(id: Int, completion: @escaping @Sendable (Account?, Error?) -> Void) {
        queue.async {
            if let account = self.accounts[id] {
                completion(account, nil)
            } else {
                completion(nil, ServiceError.notFound)
            }
        }
    }

    /// Downloads an avatar; the returned handle cancels the download.
    @discardableResult
    func avatar(for account: Account, completion: @escaping AvatarCompletion) -> RequestHandle {
        let handle = RequestHandle()
        queue.async {
            completion(.success(Avatar(pixels: Data(account.email.utf8))))
        }
        return handle
    }

    /// Nested callbacks: the pyramid the promise and async alternatives flatten for callers.
    func dashboard(accountID: Int, completion: @escaping @Sendable (Result<Dashboard, Error>) -> Void) {
        account(id: accountID) { account, error in
            guard let account else {
                completion(.failure(error ?? ServiceError.notFound))
                return
            }
            self.avatar(for: account) { result in
                switch result {
                case .success(let avatar):
                    completion(.success(Dashboard(account: account, avatar: avatar)))
                case .failure(let error):
                    completion(.failure(error))
                }
            }
        }
    }

    /// An Objective-C-era API with separate success and failure blocks.
    func signIn(email: String, password: String, success: @escaping @Sendable (Account) -> Void, failure: @escaping @Sendable (Error) -> Void) {
        queue.async {
            if password.isEmpty {
                failure(ServiceError.unauthorized)
            } else {
                success(Account(id: 2, email: email))
            }
        }
    }

    /// Reports only whether it worked.
    func signOut(completion: @escaping @Sendable (Error?) -> Void) {
        queue.async { completion(nil) }
    }

    /// Cannot fail: the handler always gets the cached count.
    func cachedAccountCount(completion: @escaping @Sendable (Int) -> Void) {
        queue.async { completion(self.accounts.count) }
    }

    /// Returns a plain value besides calling its handler: reported, left alone.
    func enqueueSync(completion: @escaping @Sendable (Error?) -> Void) -> Int {
        queue.async { completion(nil) }
        return 0
    }
}

/// A screen built on the service: the callback pyramids `--stage all` flattens into one chain
/// (or straight-line `try await`) per action.
final class DashboardScreen: @unchecked Sendable {
    let service = LegacyService()
    private let lock = NSLock()
    private var lines: [String] = []

    func show(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    func refresh(accountID: Int) {
        service.account(id: accountID) { account, error in
            if let error { self.show("failed: \(error)"); return }
            self.show("signed in as \(account!.email)")
            self.service.cachedAccountCount { count in
                DispatchQueue.main.async { self.show("one of \(count) accounts") }
            }
        }
    }

    func signOut() {
        service.signOut { error in
            if let error {
                self.show("sign-out failed: \(error)")
            } else {
                self.service.cachedAccountCount { count in self.show("\(count) accounts left") }
            }
        }
    }
}
