import Foundation
import Vow

public struct Note: Sendable {
    public let text: String
}

public protocol NoteRepository: Sendable {
    associatedtype ID

    func note(id: ID, completion: @escaping @Sendable (Swift.Result<Note, Error>) -> Void)
    func allIDs(completion: @escaping @Sendable ([ID]?, Error?) -> Void)
    static func open(path: String, completion: @escaping @Sendable (Swift.Result<Self, Error>) -> Void)
    var count: Int { get }
}

/// Promise and async alternatives to the completion-handler requirements, added by vow-migrate.
public extension NoteRepository where ID: Sendable {
    /// Promise-based alternative to `note(id:completion:)`, added by vow-migrate.
    func note(id: ID) -> Promise<Note> {
        Promise { seal in
            note(id: id) { result in
                seal.resolve(result)
            }
        }
    }

    /// Promise-based alternative to `allIDs(completion:)`, added by vow-migrate.
    func allIDs() -> Promise<[ID]> {
        Promise { seal in
            allIDs { value, error in
                seal.resolve(value, error)
            }
        }
    }

    /// Promise-based alternative to `open(path:completion:)`, added by vow-migrate.
    static func open(path: String) -> Promise<Self> {
        Promise { seal in
            open(path: path) { result in
                seal.resolve(result)
            }
        }
    }
}

struct InMemoryNotes: NoteRepository {
    func note(id: String, completion: @escaping @Sendable (Swift.Result<Note, Error>) -> Void) {
        completion(.success(Note(text: id)))
    }

    /// Promise-based alternative to `note(id:completion:)`, added by vow-migrate.
    func note(id: String) -> Promise<Note> {
        Promise { seal in
            note(id: id) { result in
                seal.resolve(result)
            }
        }
    }

    func allIDs(completion: @escaping @Sendable ([String]?, Error?) -> Void) {
        completion(["a"], nil)
    }

    /// Promise-based alternative to `allIDs(completion:)`, added by vow-migrate.
    func allIDs() -> Promise<[String]> {
        Promise { seal in
            allIDs { value, error in
                seal.resolve(value, error)
            }
        }
    }

    static func open(path: String, completion: @escaping @Sendable (Swift.Result<InMemoryNotes, Error>) -> Void) {
        completion(.success(InMemoryNotes()))
    }

    /// Promise-based alternative to `open(path:completion:)`, added by vow-migrate.
    static func open(path: String) -> Promise<InMemoryNotes> {
        Promise { seal in
            open(path: path) { result in
                seal.resolve(result)
            }
        }
    }

    var count: Int { 1 }
}
