import Foundation

public struct Note: Sendable {
    public let text: String
}

public protocol NoteRepository: Sendable {
    associatedtype ID

    func note(id: ID, completion: @escaping @Sendable (Result<Note, Error>) -> Void)
    func allIDs(completion: @escaping @Sendable ([ID]?, Error?) -> Void)
    var count: Int { get }
}

struct InMemoryNotes: NoteRepository {
    func note(id: String, completion: @escaping @Sendable (Result<Note, Error>) -> Void) {
        completion(.success(Note(text: id)))
    }

    func allIDs(completion: @escaping @Sendable ([String]?, Error?) -> Void) {
        completion(["a"], nil)
    }

    var count: Int { 1 }
}
