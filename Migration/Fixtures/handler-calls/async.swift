import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

struct Profile: Sendable {
    let id: Int
}

final class ProfileStore: @unchecked Sendable {
    var cached: Profile?

    // Called twice: a cached answer, then a fresh one.
    func profile(id: Int, completion: @escaping @Sendable (Profile?, Error?) -> Void) {
        if let cached {
            completion(cached, nil)
        }
        DispatchQueue.global().async {
            completion(Profile(id: id), nil)
        }
    }

    // Hands its handler to a function that calls it twice.
    func currentProfile(completion: @escaping @Sendable (Profile?, Error?) -> Void) {
        profile(id: 0, completion: completion)
    }

    // A path of its own body ends without calling it.
    @available(*, renamed: "save(_:)")
    func save(_ profile: Profile, completion: @escaping @Sendable (Error?) -> Void) {
        guard profile.id > 0 else { return }
        completion(nil)
    }

    /// Async alternative to `save(_:completion:)`, added by vow-migrate.
    /// Like the original, which ends without calling its handler on some path, it answers nothing there: the awaiting task stays suspended.
    nonisolated(nonsending) func save(_ profile: Profile) async throws {
        try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
            save(profile) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    // Never calls it.
    func forget(completion: @escaping @Sendable (Error?) -> Void) {
        cached = nil
    }

    // Once on every path, one of them inside a callback: converted.
    @available(*, renamed: "reload(id:)")
    func reload(id: Int, completion: @escaping @Sendable (Profile?, Error?) -> Void) {
        guard id > 0 else {
            completion(nil, URLError(.badURL))
            return
        }
        DispatchQueue.global().async { [weak self] in
            guard let self else { return }
            completion(self.cached, nil)
        }
    }

    /// Async alternative to `reload(id:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func reload(id: Int) async throws -> Profile {
        try await withCheckedThrowingContinuation { continuation in
            reload(id: id) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "reload(id:completion:)"))
                }
            }
        }
    }

    // Hands its handler on to one that calls it once: converted.
    @available(*, renamed: "reloadCurrent()")
    func reloadCurrent(completion: @escaping @Sendable (Profile?, Error?) -> Void) {
        reload(id: 1, completion: completion)
    }

    /// Async alternative to `reloadCurrent(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func reloadCurrent() async throws -> Profile {
        try await withCheckedThrowingContinuation { continuation in
            reloadCurrent { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "reloadCurrent(completion:)"))
                }
            }
        }
    }
}
