import Foundation

// A realistic callback-style SDK, several modules' conventions in one tree: networking, auth,
// storage, store purchases, image loading and a backend client. Used by SDKSampleTests: vow-migrate
// must add an alternative that typechecks to at least 85% of its completion-handler functions and
// say why for the rest.

/// Errors the SDK reports.
enum SDKError: Error, Sendable, Equatable {
    case notFound
    case unauthorized
    case invalidResponse(status: Int)
    case decoding(String)
    case cancelled
    case storageFull
    case purchaseFailed(reason: String)
}

struct User: Codable, Sendable, Equatable {
    let id: Int
    let name: String
    let email: String
}

struct Repository: Codable, Sendable, Equatable {
    let id: Int
    let fullName: String
    let stars: Int
    let isPrivate: Bool
}

struct Issue: Codable, Sendable, Equatable {
    let number: Int
    let title: String
    let isOpen: Bool
}

struct Comment: Codable, Sendable, Equatable {
    let id: Int
    let body: String
}

struct Tweet: Codable, Sendable, Equatable {
    let id: String
    let text: String
    let likes: Int
}

struct Credentials: Sendable, Equatable {
    let accessToken: String
    let refreshToken: String
    let expiresAt: Date
}

struct Product: Sendable, Equatable {
    let identifier: String
    let displayName: String
    let price: Decimal
}

struct Transaction: Sendable, Equatable {
    let identifier: String
    let productIdentifier: String
    let purchasedAt: Date
}

struct Receipt: Sendable, Equatable {
    let data: Data
    let transactions: [Transaction]
}

/// An image, as a platform-independent bitmap.
struct Image: Sendable, Equatable {
    let width: Int
    let height: Int
    let pixels: Data
}

struct PageInfo: Sendable, Equatable {
    let next: Int?
    let total: Int
}

/// An HTTP response without the body.
struct HTTPResponse: Sendable, Equatable {
    let statusCode: Int
    let headers: [String: String]
}

enum HTTPMethod: String, Sendable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case delete = "DELETE"
}

struct Endpoint: Sendable {
    let path: String
    let method: HTTPMethod
    let query: [String: String]

    init(path: String, method: HTTPMethod = .get, query: [String: String] = [:]) {
        self.path = path
        self.method = method
        self.query = query
    }
}

/// A lock-protected value, so the SDK's classes can be `Sendable`.
final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func read<Result>(_ body: (Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(value)
    }

    func write(_ body: (inout Value) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(&value)
    }
}
