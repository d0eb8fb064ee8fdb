import Foundation
import Vow

/// Isolated to the main actor, so `Sendable`, and so are its subclasses.
@MainActor
open class Credential {
    nonisolated public init() {}
}

open class OAuthCredential: Credential {}

/// `Sendable` through its superclass's superclass: a promise can carry it.
public final class RefreshedCredential: OAuthCredential {}

/// A public struct is not inferred `Sendable`; its conformance is in another file.
public struct Profile {
    public let name: String
}

public final class CredentialService: Sendable {
    public init() {}

    @available(*, renamed: "credential()")
    public func credential(completion: @escaping (RefreshedCredential?, Error?) -> Void) {
        completion(RefreshedCredential(), nil)
    }

    /// Async alternative to `credential(completion:)`, added by vow-migrate.
    public func credential() async throws -> RefreshedCredential {
        try await withCheckedThrowingContinuation { continuation in
            credential { value, error in
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

    @available(*, renamed: "profile()")
    public func profile(completion: @escaping (Swift.Result<Profile, Error>) -> Void) {
        completion(.success(Profile(name: "p")))
    }

    /// Async alternative to `profile(completion:)`, added by vow-migrate.
    public func profile() async throws -> Profile {
        try await withCheckedThrowingContinuation { continuation in
            profile { result in
                continuation.resume(with: result)
            }
        }
    }
}
