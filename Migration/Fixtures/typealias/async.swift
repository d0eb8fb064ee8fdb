import Foundation
import Vow

struct Profile: Sendable {
    let bio: String
}

typealias ProfileCompletion = @Sendable (Profile?, Error?) -> Void
typealias DoneHandler = @Sendable (Swift.Result<Int, Error>) -> Void

final class ProfileService: Sendable {
    @available(*, renamed: "profile(userID:)")
    func profile(userID: Int, completion: @escaping ProfileCompletion) {
        completion(Profile(bio: "hi"), nil)
    }

    /// Async alternative to `profile(userID:completion:)`, added by vow-migrate.
    func profile(userID: Int) async throws -> Profile {
        try await withCheckedThrowingContinuation { continuation in
            profile(userID: userID) { value, error in
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

    @available(*, renamed: "count()")
    func count(completion: @escaping DoneHandler) {
        completion(.success(3))
    }

    /// Async alternative to `count(completion:)`, added by vow-migrate.
    func count() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            count { result in
                continuation.resume(with: result)
            }
        }
    }
}
