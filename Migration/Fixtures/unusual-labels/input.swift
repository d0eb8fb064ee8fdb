import Foundation

final class Runner: Sendable {
    func run(_ command: String, execute: @escaping @Sendable (Result<Int, Error>) -> Void) {
        execute(.success(0))
    }

    func load(name: String, then: @escaping @Sendable (String?, Error?) -> Void) {
        then(name, nil)
    }
}
