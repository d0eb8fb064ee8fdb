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

    public func credential(completion: @escaping (RefreshedCredential?, Error?) -> Void) {
        completion(RefreshedCredential(), nil)
    }

    /// Promise-based alternative to `credential(completion:)`, added by vow-migrate.
    public func credential() -> Promise<RefreshedCredential> {
        Promise { seal in
            credential { value, error in
                seal.resolve(value, error)
            }
        }
    }

    public func profile(completion: @escaping (Swift.Result<Profile, Error>) -> Void) {
        completion(.success(Profile(name: "p")))
    }

    /// Promise-based alternative to `profile(completion:)`, added by vow-migrate.
    public func profile() -> Promise<Profile> {
        Promise { seal in
            profile { result in
                seal.resolve(result)
            }
        }
    }
}
