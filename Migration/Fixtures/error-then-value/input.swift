// Copyright header: this comment stays at the top, above the added import.

struct Row: Sendable {
    let id: Int
}

final class Database: Sendable {
    func query(_ sql: String, callback: @escaping @Sendable (Error?, [Row]?) -> Void) {
        callback(nil, [Row(id: 1)])
    }
}
