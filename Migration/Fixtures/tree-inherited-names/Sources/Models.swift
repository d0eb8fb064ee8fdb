import Foundation

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

    public func profile(completion: @escaping (Result<Profile, Error>) -> Void) {
        completion(.success(Profile(name: "p")))
    }
}
