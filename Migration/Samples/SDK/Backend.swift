import Foundation

/// A backend-as-a-service SDK: documents, queries, cloud functions, files.
protocol DocumentStore: Sendable {
    func document(at path: String, completion: @escaping @Sendable (Result<[String: String], Error>) -> Void)
    func setDocument(_ fields: [String: String], at path: String, completion: @escaping VoidCompletion)
    func deleteDocument(at path: String, completion: @escaping VoidCompletion)
}

final class MemoryDocumentStore: DocumentStore {
    private let documents = Protected<[String: [String: String]]>([:])

    func document(at path: String, completion: @escaping @Sendable (Result<[String: String], Error>) -> Void) {
        if let fields = documents.read({ $0[path] }) {
            completion(.success(fields))
        } else {
            completion(.failure(SDKError.notFound))
        }
    }

    func setDocument(_ fields: [String: String], at path: String, completion: @escaping VoidCompletion) {
        documents.write { $0[path] = fields }
        completion(nil)
    }

    func deleteDocument(at path: String, completion: @escaping VoidCompletion) {
        documents.write { $0[path] = nil }
        completion(nil)
    }
}

final class BackendClient: Sendable {
    private let http: HTTPClient
    private let store: DocumentStore
    private let queue = DispatchQueue(label: "sdk.backend")

    init(http: HTTPClient, store: DocumentStore) {
        self.http = http
        self.store = store
    }

    /// Decodes any document into the caller's type: the type comes only from the result.
    func fetch<T: Decodable & Sendable>(path: String, completion: @escaping @Sendable (Result<T, Error>) -> Void) {
        store.document(at: path) { result in
            switch result {
            case .success(let fields):
                do {
                    let data = try JSONSerialization.data(withJSONObject: fields)
                    completion(.success(try JSONDecoder().decode(T.self, from: data)))
                } catch {
                    completion(.failure(error))
                }
            case .failure(let error):
                completion(.failure(error))
            }
        }
    }

    /// Saves fields, merging with what is there.
    func save(_ fields: [String: String], at path: String, merge: Bool = true, completion: @escaping VoidCompletion) {
        let store = self.store
        guard merge else {
            store.setDocument(fields, at: path, completion: completion)
            return
        }
        store.document(at: path) { result in
            var merged = (try? result.get()) ?? [:]
            merged.merge(fields) { _, new in new }
            store.setDocument(merged, at: path, completion: completion)
        }
    }

    /// Node-style: the error first, the value second.
    func callFunction(_ name: String, payload: [String: String], completion: @escaping @Sendable (Error?, [String: String]?) -> Void) {
        http.json(at: "/functions/\(name)") { result in
            switch result {
            case .success(let response): completion(nil, response)
            case .failure(let error): completion(error, nil)
            }
        }
    }

    /// Runs a query and hands back the matching paths.
    func query(collection: String, field: String, equals value: String, execute: @escaping @Sendable (Result<[String], Error>) -> Void) {
        queue.async {
            execute(.success(["\(collection)/\(field)=\(value)"]))
        }
    }

    /// Counts documents; cannot fail.
    func count(collection: String, completion: @escaping @Sendable (Int) -> Void) {
        queue.async {
            completion(collection.count)
        }
    }

    /// Deletes a document and reports whether it existed.
    func delete(path: String, completion: @escaping @Sendable (_ deleted: Bool, _ error: Error?) -> Void) {
        store.deleteDocument(at: path) { error in
            completion(error == nil, error)
        }
    }

    /// Uploads a file and returns its download URL and size.
    func uploadFile(_ data: Data, named name: String, completion: @escaping @Sendable (_ url: URL?, _ size: Int?, _ error: Error?) -> Void) {
        http.upload(data, to: "/files/\(name)") { _, _, error in
            if let error {
                completion(nil, nil, error)
            } else {
                completion(URL(string: "https://files.example.com/\(name)"), data.count, nil)
            }
        }
    }

    /// Downloads a file; the handle cancels it.
    @discardableResult
    func downloadFile(named name: String, completion: @escaping @Sendable (Data?, Error?) -> Void) -> RequestTask {
        http.data(at: "/files/\(name)", completionHandler: completion)
    }

    /// Listens to a document: called on every change. An event registration.
    func addSnapshotListener(path: String, listener: @escaping @Sendable ([String: String]) -> Void) {
        listener([:])
    }

    /// Runs a transaction body that can be retried, then reports the outcome.
    func runTransaction(_ updates: @escaping @Sendable ([String: String]) -> [String: String], completion: @escaping VoidCompletion) {
        let store = self.store
        store.document(at: "/transaction") { result in
            let updated = updates((try? result.get()) ?? [:])
            store.setDocument(updated, at: "/transaction", completion: completion)
        }
    }

    /// Signs in anonymously; the session is the document store's business.
    func signInAnonymously(completion: @escaping @Sendable (User?, Error?) -> Void) {
        queue.async {
            completion(User(id: 0, name: "anonymous", email: ""), nil)
        }
    }

    /// Flushes pending writes; the handler is optional.
    func flush(completion: VoidCompletion?) {
        queue.async {
            completion?(nil)
        }
    }

    /// Fetches a config value, answering from the defaults and then from the server.
    func remoteConfig(key: String, completion: @escaping @Sendable (String?, Error?) -> Void) {
        completion("default", nil)
        http.json(at: "/config") { result in
            switch result {
            case .success(let config): completion(config[key], nil)
            case .failure(let error): completion(nil, error)
            }
        }
    }

    /// Logs several events; variadic, so it cannot be forwarded.
    func logEvents(_ names: String..., completion: @escaping VoidCompletion) {
        http.post("/events", body: Data(names.joined(separator: ",").utf8), completion: completion)
    }

    /// Sends a batch of writes built by an inout closure.
    func batchWrite(_ build: (inout [String: [String: String]]) -> Void, completion: @escaping VoidCompletion) {
        var writes: [String: [String: String]] = [:]
        build(&writes)
        let store = self.store
        let group = DispatchGroup()
        for (path, fields) in writes {
            group.enter()
            store.setDocument(fields, at: path) { _ in group.leave() }
        }
        group.notify(queue: queue) {
            completion(nil)
        }
    }
}

extension BackendClient {
    /// A user's profile document, decoded.
    func profile(for user: User, completion: @escaping CompletionHandler<User>) {
        fetch(path: "/users/\(user.id)", completion: completion)
    }

    /// Saves the user's profile.
    func saveProfile(_ user: User, completion: @escaping VoidCompletion) {
        save(["name": user.name, "email": user.email], at: "/users/\(user.id)", completion: completion)
    }

    /// The server time and its offset from the device.
    func serverTime(completion: @escaping @Sendable (_ date: Date?, _ offset: TimeInterval, _ error: Error?) -> Void) {
        queue.async {
            completion(Date(), 0, nil)
        }
    }
}
