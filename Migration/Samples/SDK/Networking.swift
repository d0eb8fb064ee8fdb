import Foundation

/// Where requests go: a transport stands for `URLSession`, so the sample builds anywhere.
protocol Transport: Sendable {
    @discardableResult
    func send(_ endpoint: Endpoint, body: Data?, completion: @escaping DataCompletion) -> RequestTask
}

/// A transport that answers from memory after a hop to a queue, as the tests' fakes do.
final class MemoryTransport: Transport {
    private let responses: Protected<[String: Data]>
    private let queue = DispatchQueue(label: "sdk.memory-transport")
    private let counter = Protected(0)

    init(responses: [String: Data] = [:]) {
        self.responses = Protected(responses)
    }

    func send(_ endpoint: Endpoint, body: Data?, completion: @escaping DataCompletion) -> RequestTask {
        var identifier = 0
        counter.write { $0 += 1; identifier = $0 }
        let data = responses.read { $0[endpoint.path] }
        queue.async {
            if let data {
                completion(data, HTTPResponse(statusCode: 200, headers: [:]), nil)
            } else {
                completion(nil, HTTPResponse(statusCode: 404, headers: [:]), SDKError.notFound)
            }
        }
        return DataTask(identifier: identifier)
    }

    func respond(to path: String, with data: Data) {
        responses.write { $0[path] = data }
    }
}

/// The SDK's HTTP layer: raw data, decoded values, uploads, downloads.
final class HTTPClient: Sendable {
    let transport: Transport
    let baseURL: URL
    private let decoder = JSONDecoder()
    private let callbackQueue: DispatchQueue

    init(transport: Transport, baseURL: URL, callbackQueue: DispatchQueue = .main) {
        self.transport = transport
        self.baseURL = baseURL
        self.callbackQueue = callbackQueue
    }

    /// Raw data and the response, as `URLSession.dataTask` hands them over.
    @discardableResult
    func data(for endpoint: Endpoint, completion: @escaping DataCompletion) -> RequestTask {
        transport.send(endpoint, body: nil) { data, response, error in
            completion(data, response, error)
        }
    }

    /// Raw data without the response.
    @discardableResult
    func data(at path: String, completionHandler: @escaping @Sendable (Data?, Error?) -> Void) -> RequestTask {
        transport.send(Endpoint(path: path), body: nil) { data, _, error in
            completionHandler(data, error)
        }
    }

    /// A decoded value; the type comes from the caller.
    @discardableResult
    func get<T: Decodable & Sendable>(_ path: String, query: [String: String] = [:], completion: @escaping CompletionHandler<T>) -> RequestTask {
        let decoder = self.decoder
        return transport.send(Endpoint(path: path, query: query), body: nil) { data, response, error in
            if let error {
                completion(.failure(error))
                return
            }
            guard let data, let response, response.statusCode == 200 else {
                completion(.failure(SDKError.invalidResponse(status: response?.statusCode ?? 0)))
                return
            }
            do {
                completion(.success(try decoder.decode(T.self, from: data)))
            } catch {
                completion(.failure(SDKError.decoding("\(error)")))
            }
        }
    }

    /// Posts a body and reports only whether it worked.
    func post(_ path: String, body: Data, completion: @escaping VoidCompletion) {
        transport.send(Endpoint(path: path, method: .post), body: body) { _, response, error in
            if let error {
                completion(error)
            } else if let response, response.statusCode >= 300 {
                completion(SDKError.invalidResponse(status: response.statusCode))
            } else {
                completion(nil)
            }
        }
    }

    /// Deletes a resource; the flag says whether it existed.
    func delete(_ path: String, completion: @escaping @Sendable (_ success: Bool, _ error: Error?) -> Void) {
        transport.send(Endpoint(path: path, method: .delete), body: nil) { _, response, error in
            completion(response?.statusCode == 204, error)
        }
    }

    /// Uploads and reports the response and the server's copy of the body.
    func upload(_ data: Data, to path: String, completion: @escaping @Sendable (_ response: HTTPResponse?, _ echo: Data?, _ error: Error?) -> Void) {
        transport.send(Endpoint(path: path, method: .put), body: data) { echo, response, error in
            completion(response, echo, error)
        }
    }

    /// Downloads with progress; the progress closure is called many times, the completion once.
    func download(_ path: String, progress: @escaping @Sendable (Double) -> Void, completion: @escaping @Sendable (Result<Data, Error>) -> Void) {
        progress(0)
        transport.send(Endpoint(path: path), body: nil) { data, _, error in
            progress(1)
            if let data {
                completion(.success(data))
            } else {
                completion(.failure(error ?? SDKError.notFound))
            }
        }
    }

    /// The status code alone, delivered on the callback queue.
    func status(of path: String, completion: @escaping @Sendable (Int) -> Void) {
        let queue = callbackQueue
        transport.send(Endpoint(path: path), body: nil) { _, response, _ in
            queue.async {
                completion(response?.statusCode ?? 0)
            }
        }
    }

    /// Checks the connection; nothing to report but that it finished.
    func warmUp(completion: @escaping @Sendable () -> Void) {
        transport.send(Endpoint(path: "/ping"), body: nil) { _, _, _ in
            completion()
        }
    }

    /// A page of decoded values and what follows it.
    func page<T: Decodable & Sendable>(_ path: String, number: Int, completion: @escaping @Sendable (_ items: [T]?, _ info: PageInfo?, _ error: Error?) -> Void) {
        get(path, query: ["page": "\(number)"]) { (result: Result<[T], Error>) in
            switch result {
            case .success(let items):
                completion(items, PageInfo(next: items.isEmpty ? nil : number + 1, total: items.count), nil)
            case .failure(let error):
                completion(nil, nil, error)
            }
        }
    }

    /// Sends a request after building it with a closure that runs right away (not a completion).
    func send(building build: (inout Endpoint) -> Void, completion: @escaping VoidCompletion) {
        var endpoint = Endpoint(path: "/")
        build(&endpoint)
        transport.send(endpoint, body: nil) { _, _, error in
            completion(error)
        }
    }

    /// Retries a request: the handler hears about every attempt, not just the last.
    func retrying(_ path: String, attempts: Int, completion: @escaping @Sendable (Data?, Error?) -> Void) {
        for attempt in 0..<attempts {
            transport.send(Endpoint(path: path, query: ["attempt": "\(attempt)"]), body: nil) { data, _, error in
                completion(data, error)
            }
        }
    }

    /// Reports reachability changes until told to stop: an event registration, not a completion.
    func observeReachability(_ handler: @escaping @Sendable (Bool) -> Void) {
        handler(true)
    }
}

extension HTTPClient {
    /// Requests with a timeout; the timeout error comes through the same handler.
    @discardableResult
    func data(for endpoint: Endpoint, timeout: TimeInterval, completion: @escaping DataCompletion) -> RequestTask {
        data(for: endpoint) { data, response, error in
            completion(data, response, error)
        }
    }

    /// Fetches JSON as a dictionary.
    func json(at path: String, completion: @escaping @Sendable (Result<[String: String], Error>) -> Void) {
        data(at: path) { data, error in
            guard let data else {
                completion(.failure(error ?? SDKError.notFound))
                return
            }
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: String]
            completion(object.map { .success($0) } ?? .failure(SDKError.decoding("not a dictionary")))
        }
    }

    /// Headers of a resource, or an error.
    func headers(of path: String, then: @escaping @Sendable (Result<[String: String], Error>) -> Void) {
        transport.send(Endpoint(path: path), body: nil) { _, response, error in
            if let response {
                then(.success(response.headers))
            } else {
                then(.failure(error ?? SDKError.notFound))
            }
        }
    }

    /// Runs a batch and hands back the count that succeeded.
    func batch(_ paths: [String], execute: @escaping @Sendable (Result<Int, Error>) -> Void) {
        let group = DispatchGroup()
        let succeeded = Protected(0)
        for path in paths {
            group.enter()
            transport.send(Endpoint(path: path), body: nil) { data, _, _ in
                if data != nil { succeeded.write { $0 += 1 } }
                group.leave()
            }
        }
        group.notify(queue: .global()) {
            execute(.success(succeeded.read { $0 }))
        }
    }
}
