import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

struct Profile: Sendable {
    let bio: String
}

typealias ProfileCompletion = @Sendable (Profile?, Error?) -> Void
typealias DoneHandler = @Sendable (Result<Int, Error>) -> Void

final class ProfileService: Sendable {
    @available(*, renamed: "profile(userID:)")
    func profile(userID: Int, completion: @escaping ProfileCompletion) {
        completion(Profile(bio: "hi"), nil)
    }

    /// Async alternative to `profile(userID:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func profile(userID: Int) async throws -> Profile {
        try await withCheckedThrowingContinuation { continuation in
            profile(userID: userID) { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "profile(userID:completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "count()")
    func count(completion: @escaping DoneHandler) {
        completion(.success(3))
    }

    /// Async alternative to `count(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func count() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            count { result in
                continuation.resume(with: result)
            }
        }
    }
}
