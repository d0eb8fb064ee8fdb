import Foundation

public enum HTTPMethod: String {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
}

/// A request relative to the configured base URL. Transports turn it into whatever they send.
public struct HTTPRequest: Equatable {
    public var method: HTTPMethod
    public var path: String
    public var query: [String: String]
    public var headers: [String: String]
    public var body: Data?

    public init(method: HTTPMethod = .get, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The key the response cache files a GET under: the path and its query, sorted so that the
    /// same query written in another order hits the same entry.
    var cacheKey: String {
        let items = query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return items.isEmpty ? path : path + "?" + items.joined(separator: "&")
    }

    /// A JSON body, with the matching content type.
    static func json<Body: Encodable>(_ method: HTTPMethod, _ path: String, _ body: Body) throws -> HTTPRequest {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        return HTTPRequest(method: method, path: path, headers: ["Content-Type": "application/json"], body: try encoder.encode(body))
    }
}

public struct HTTPResponse: Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The error the platform describes in its `{"error": "..."}` body, if any.
    var serverMessage: String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        return object["error"] as? String
    }
}
