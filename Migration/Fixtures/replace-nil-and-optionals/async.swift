import Foundation

/// Thrown by an async alternative added by vow-migrate when the original's completion handler
/// answered neither a value nor an error (`(nil, nil)`, `(false, nil)`, or a value left nil),
/// which its types allow but an async function cannot return. Recognised by its name.
fileprivate struct NeitherValueNorError: Error {
    /// The completion-handler function that answered so, as Swift names it.
    let function: String
}

struct Account: Sendable {
    let id: Int
}

enum LookupError: Error {
    case missing
}

final class Accounts: @unchecked Sendable {
    var cache: [Int: Account] = [:]

    // Both nil: a broken calling convention, as the alternatives treat it.
    nonisolated(nonsending) func nothing() async throws -> Account {
        throw NeitherValueNorError(function: "nothing(completion:)")
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
    nonisolated(nonsending) func make(id: Int) async throws -> Account {
        return Account(id: id)
    }
}
