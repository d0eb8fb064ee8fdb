// Samples/LegacyService.swift after `--to promise` and `--to async` added alternatives to every
// function, except `dashboard`, written here by hand to show the next step: `--replace` turns its
// nested callbacks into a chain of the alternatives. The leaves stay: they hand their handlers to
// `DispatchQueue.async`, which has no alternative.

import Foundation
import Vow

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

typealias AvatarCompletion = @Sendable (Swift.Result<Avatar, ServiceError>) -> Void

final class LegacyService: @unchecked Sendable {
    private let queue = DispatchQueue(label: "legacy-service")
    private var accounts: [Int: Account] = [1: Account(id: 1, email: "ada@example.com")]

    /// Looks an account up; exactly one of the two arguments is non-nil.
    @available(*, renamed: "account(id:)")
    func account(id: Int, completion: @escaping @Sendable (Account?, Error?) -> Void) {
        queue.async {
            if let account = self.accounts[id] {
                completion(account, nil)
            } else {
                completion(nil, ServiceError.notFound)
            }
        }
    }

    /// Async alternative to `account(id:completion:)`, added by vow-migrate.
    func account(id: Int) async throws -> Account {
        try await withCheckedThrowingContinuation { continuation in
            account(id: id) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: PMKError.invalidCallingConvention)
                }
            }
        }
    }

    /// Promise-based alternative to `account(id:completion:)`, added by vow-migrate.
    func account(id: Int) -> Promise<Account> {
        Promise { seal in
            account(id: id) { value, error in
                seal.resolve(value, error)
            }
        }
    }

    /// Downloads an avatar; the returned handle cancels the download.
    @available(*, renamed: "avatar(for:)")
    @discardableResult
    func avatar(for account: Account, completion: @escaping AvatarCompletion) -> RequestHandle {
        let handle = RequestHandle()
        queue.async {
            completion(.success(Avatar(pixels: Data(account.email.utf8))))
        }
        return handle
    }

    /// Async alternative to `avatar(for:completion:)`, added by vow-migrate.
    func avatar(for account: Account) async throws -> Avatar {
        let cancellationSource = CancellationTokenSource()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = avatar(for: account) { result in
                    continuation.resume(with: result)
                }
                cancellationSource.token.register { task.cancel() }
            }
        } onCancel: {
            cancellationSource.cancel()
        }
    }

    /// Promise-based alternative to `avatar(for:completion:)`, added by vow-migrate.
    func avatar(for account: Account, cancellation token: CancellationToken? = nil) -> Promise<Avatar> {
        Promise(cancellation: token) { seal in
            let task = avatar(for: account) { result in
                seal.resolve(result)
            }
            seal.onCancel { task.cancel() }
        }
    }

    /// Nested callbacks: the pyramid the promise and async alternatives flatten for callers.
    nonisolated(nonsending) func dashboard(accountID: Int) async throws -> Dashboard {
        let account = try await self.account(id: accountID)
        let avatar = try await self.avatar(for: account)
        return Dashboard(account: account, avatar: avatar)
    }

    /// An Objective-C-era API with separate success and failure blocks.
    @available(*, renamed: "signIn(email:password:)")
    func signIn(email: String, password: String, success: @escaping @Sendable (Account) -> Void, failure: @escaping @Sendable (Error) -> Void) {
        queue.async {
            if password.isEmpty {
                failure(ServiceError.unauthorized)
            } else {
                success(Account(id: 2, email: email))
            }
        }
    }

    /// Async alternative to `signIn(email:password:success:failure:)`, added by vow-migrate.
    func signIn(email: String, password: String) async throws -> Account {
        try await withCheckedThrowingContinuation { continuation in
            signIn(email: email, password: password, success: { value in
                continuation.resume(returning: value)
            }, failure: { error in
                continuation.resume(throwing: error)
            })
        }
    }

    /// Promise-based alternative to `signIn(email:password:success:failure:)`, added by vow-migrate.
    func signIn(email: String, password: String) -> Promise<Account> {
        Promise { seal in
            signIn(email: email, password: password, success: { value in
                seal.fulfill(value)
            }, failure: { error in
                seal.reject(error)
            })
        }
    }

    /// Reports only whether it worked.
    @available(*, renamed: "signOut()")
    func signOut(completion: @escaping @Sendable (Error?) -> Void) {
        queue.async { completion(nil) }
    }

    /// Async alternative to `signOut(completion:)`, added by vow-migrate.
    func signOut() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            signOut { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    /// Promise-based alternative to `signOut(completion:)`, added by vow-migrate.
    func signOut() -> Promise<Void> {
        Promise { seal in
            signOut { error in
                seal.resolve(error)
            }
        }
    }

    /// Cannot fail: the handler always gets the cached count.
    @available(*, renamed: "cachedAccountCount()")
    func cachedAccountCount(completion: @escaping @Sendable (Int) -> Void) {
        queue.async { completion(self.accounts.count) }
    }

    /// Async alternative to `cachedAccountCount(completion:)`, added by vow-migrate.
    func cachedAccountCount() async -> Int {
        await withCheckedContinuation { continuation in
            cachedAccountCount { value in
                continuation.resume(returning: value)
            }
        }
    }

    /// Promise-based alternative to `cachedAccountCount(completion:)`, added by vow-migrate.
    func cachedAccountCount() -> Guarantee<Int> {
        Guarantee { resolve in
            cachedAccountCount { value in
                resolve(value)
            }
        }
    }

    /// Returns a plain value besides calling its handler: reported, left alone.
    func enqueueSync(completion: @escaping @Sendable (Error?) -> Void) -> Int {
        queue.async { completion(nil) }
        return 0
    }
}
