import Foundation

public struct Note: Sendable {
    public let text: String
}

public protocol NoteRepository: Sendable {
    associatedtype ID

    func note(id: ID, completion: @escaping @Sendable (Result<Note, Error>) -> Void)
    func allIDs(completion: @escaping @Sendable ([ID]?, Error?) -> Void)
    static func open(path: String, completion: @escaping @Sendable (Result<Self, Error>) -> Void)
    var count: Int { get }
}

struct InMemoryNotes: NoteRepository {
    func note(id: String, completion: @escaping @Sendable (Result<Note, Error>) -> Void) {
        completion(.success(Note(text: id)))
    }

    func allIDs(completion: @escaping @Sendable ([String]?, Error?) -> Void) {
        completion(["a"], nil)
    }

    static func open(path: String, completion: @escaping @Sendable (Result<InMemoryNotes, Error>) -> Void) {
        completion(.success(InMemoryNotes()))
    }

    var count: Int { 1 }
}
