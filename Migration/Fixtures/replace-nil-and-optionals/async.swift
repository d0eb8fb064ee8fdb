import Foundation
import Vow

struct Account: Sendable {
    let id: Int
}

enum LookupError: Error {
    case missing
}

final class Accounts: @unchecked Sendable {
    var cache: [Int: Account] = [:]

    // Both nil: a broken calling convention, as the alternatives treat it.
    func nothing() async throws -> Account {
        throw PMKError.invalidCallingConvention
    }

    // An optional value: may be nil.
    func cached(id: Int, completion: @escaping @Sendable (Account?, Error?) -> Void) {
        let account = cache[id]
        completion(account, nil)
    }

    // A value read from a dictionary directly.
    func lookup(id: Int, completion: @escaping @Sendable (Account?, Error?) -> Void) {
        completion(cache[id], nil)
    }

    // An optional error it did not unwrap.
    func validate(id: Int, completion: @escaping @Sendable (Error?) -> Void) {
        let error: Error? = id > 0 ? nil : LookupError.missing
        completion(error)
    }

    // A value known to be there.
    func make(id: Int) async throws -> Account {
        return Account(id: id)
    }
}
