// Copyright header: this comment stays at the top, above the added import.

import Vow

struct Row: Sendable {
    let id: Int
}

final class Database: Sendable {
    func query(_ sql: String, callback: @escaping @Sendable (Error?, [Row]?) -> Void) {
        callback(nil, [Row(id: 1)])
    }

    /// Promise-based alternative to `query(_:callback:)`, added by vow-migrate.
    func query(_ sql: String) -> Promise<[Row]> {
        Promise { seal in
            query(sql) { error, value in
                seal.resolve(error, value)
            }
        }
    }
}
