import Foundation

/// The platform's JSON conventions (snake_case keys, ISO 8601 dates) in one place.
enum JSONCoding {
    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Decodes a response body, mapping an error status first so that a 404 page is never
    /// reported as a decoding failure. Large bodies are decoded off the caller's queue.
    static func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse, completion: @escaping (Result<T, SDKError>) -> Void) {
        if let error = error(for: response) {
            completion(.failure(error))
            return
        }
        let work = {
            do {
                completion(.success(try makeDecoder().decode(T.self, from: response.body)))
            } catch {
                completion(.failure(.decoding(String(describing: error))))
            }
        }
        if response.body.count > 64 * 1024 {
            DispatchQueue.global(qos: .userInitiated).async {
                work()
            }
        } else {
            work()
        }
    }

    /// The SDK error an error status stands for, or nil for a success.
    static func error(for response: HTTPResponse) -> SDKError? {
        switch response.status {
        case 200..<300:
            return nil
        case 401:
            return .notAuthenticated
        case 404:
            return .notFound(response.serverMessage ?? "the resource")
        case 409:
            return .conflict(response.serverMessage ?? "the resource")
        case 429:
            let seconds = response.headers["Retry-After"].flatMap(TimeInterval.init) ?? 1
            return .rateLimited(retryAfter: seconds)
        default:
            return .http(status: response.status, message: response.serverMessage)
        }
    }
}
