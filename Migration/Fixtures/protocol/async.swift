import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

public struct Note: Sendable {
    public let text: String
}

public protocol NoteRepository: Sendable {
    associatedtype ID

    @available(*, renamed: "note(id:)")
    func note(id: ID, completion: @escaping @Sendable (Result<Note, Error>) -> Void)
    @available(*, renamed: "allIDs()")
    func allIDs(completion: @escaping @Sendable ([ID]?, Error?) -> Void)
    @available(*, renamed: "open(path:)")
    static func open(path: String, completion: @escaping @Sendable (Result<Self, Error>) -> Void)
    var count: Int { get }
}

/// Promise and async alternatives to the completion-handler requirements, added by vow-migrate.
public extension NoteRepository where ID: Sendable {
    /// Async alternative to `note(id:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func note(id: ID) async throws -> Note {
        try await withCheckedThrowingContinuation { continuation in
            note(id: id) { result in
                continuation.resume(with: result)
            }
        }
    }

    /// Async alternative to `allIDs(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func allIDs() async throws -> [ID] {
        try await withCheckedThrowingContinuation { continuation in
            allIDs { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "allIDs(completion:)"))
                }
            }
        }
    }

    /// Async alternative to `open(path:completion:)`, added by vow-migrate.
    static nonisolated(nonsending) func open(path: String) async throws -> Self {
        try await withCheckedThrowingContinuation { continuation in
            open(path: path) { result in
                continuation.resume(with: result)
            }
        }
    }
}

struct InMemoryNotes: NoteRepository {
    @available(*, renamed: "note(id:)")
    func note(id: String, completion: @escaping @Sendable (Result<Note, Error>) -> Void) {
        completion(.success(Note(text: id)))
    }

    /// Async alternative to `note(id:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func note(id: String) async throws -> Note {
        try await withCheckedThrowingContinuation { continuation in
            note(id: id) { result in
                continuation.resume(with: result)
            }
        }
    }

    @available(*, renamed: "allIDs()")
    func allIDs(completion: @escaping @Sendable ([String]?, Error?) -> Void) {
        completion(["a"], nil)
    }

    /// Async alternative to `allIDs(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func allIDs() async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            allIDs { value, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: NeitherValueNorError(function: "allIDs(completion:)"))
                }
            }
        }
    }

    @available(*, renamed: "open(path:)")
    static func open(path: String, completion: @escaping @Sendable (Result<InMemoryNotes, Error>) -> Void) {
        completion(.success(InMemoryNotes()))
    }

    /// Async alternative to `open(path:completion:)`, added by vow-migrate.
    static nonisolated(nonsending) func open(path: String) async throws -> InMemoryNotes {
        try await withCheckedThrowingContinuation { continuation in
            open(path: path) { result in
                continuation.resume(with: result)
            }
        }
    }

    var count: Int { 1 }
}
