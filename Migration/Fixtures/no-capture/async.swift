import Foundation

struct Note: Sendable {
    let text: String
}

enum Defaults {
    static let ignore: @Sendable (Error?) -> Void = { _ in }
}

final class NoteStore: Sendable {
    // Defaulted optional handler: the calls below that leave it out are spelled out
    // (`completion: nil`), so they keep calling this function once `save(_:)` exists.
    @available(*, renamed: "save(_:)")
    func save(_ note: Note, completion: (@Sendable (Error?) -> Void)? = nil) {
        completion?(nil)
    }

    /// Async alternative to `save(_:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func save(_ note: Note) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            save(note) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    // Defaulted closure: spelled out with the same empty closure.
    @available(*, renamed: "delete(id:force:)")
    func delete(id: Int, force: Bool = false, completion: @escaping @Sendable (Error?) -> Void = { _ in }) {
        completion(nil)
    }

    /// Async alternative to `delete(id:force:completion:)`, added by vow-migrate.
    nonisolated(nonsending) func delete(id: Int, force: Bool = false) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            delete(id: id, force: force) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    // A default the call cannot repeat with the same meaning: left alone.
    func archive(id: Int, completion: @escaping @Sendable (Error?) -> Void = Defaults.ignore) {
        completion(nil)
    }

    // A trailing closure fills the handler here, and `progress` in the alternative: left alone.
    func upload(_ note: Note, progress: (@Sendable (Double) -> Void)? = nil,
                completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
        progress?(1)
        completion(.success(1))
    }

    // `reload()` already reaches `reload(animated:)`; an alternative `reload()` would take it over.
    func reload(animated: Bool = false) {}

    func reload(completion: @escaping @Sendable (Error?) -> Void) {
        completion(nil)
    }

    func tidy() {
        save(Note(text: "draft"), completion: nil)
        self.delete(id: 1, completion: { _ in })
        delete(id: 2, force: true, completion: { _ in })
        archive(id: 3)
        upload(Note(text: "x")) { _ in }
        reload()
    }
}

// Public API: callers outside the tree may leave the handler out.
public final class SyncClient: Sendable {
    public init() {}

    public func sync(completion: (@Sendable (Error?) -> Void)? = nil) {
        completion?(nil)
    }
}

func cleanUp(store: NoteStore) {
    store.save(Note(text: "last"), completion: nil)
    store.delete(id: 4, completion: { _ in })
    store.save(Note(text: "passes it"), completion: nil)
}
