import Foundation
import PromiseKit

/// Decodes a body the backend sent; a body that does not decode is an `APIError.decoding`
/// naming what was asked for.
func decode<T: Decodable>(_ type: T.Type, from body: String, what: String) -> Promise<T> {
    do {
        let value = try JSONDecoder().decode(type, from: Data(body.utf8))
        return Promise.value(value)
    } catch {
        return Promise(error: APIError.decoding(what))
    }
}

extension Promise where T == RawResponse {
    /// The body decoded as `type`: the decoder step every repository goes through.
    func decoded<U: Decodable>(as type: U.Type, what: String) -> Promise<U> {
        then { response in
            decode(type, from: response.body, what: what)
        }
    }
}

/// The backend's envelope for lists.
struct ListEnvelope<Item: Decodable>: Decodable {
    var items: [Item]
}

extension ListEnvelope: Sendable where Item: Sendable {}
