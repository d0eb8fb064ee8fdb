import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

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
    public nonisolated(nonsending) func credential() async throws -> RefreshedCredential {
        try await withCheckedThrowingContinuation { continuation in
            credential { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "credential(completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "profile()")
    public func profile(completion: @escaping (Result<Profile, Error>) -> Void) {
        completion(.success(Profile(name: "p")))
    }

    /// Async alternative to `profile(completion:)`, added by vow-migrate.
    public nonisolated(nonsending) func profile() async throws -> Profile {
        try await withCheckedThrowingContinuation { continuation in
            profile { result in
                continuation.resume(with: result)
            }
        }
    }
}
