import Foundation
import Vow

final class Runner: Sendable {
    func run(_ command: String, execute: @escaping @Sendable (Swift.Result<Int, Error>) -> Void) {
        execute(.success(0))
    }

    /// Promise-based alternative to `run(_:execute:)`, added by vow-migrate.
    func run(_ command: String) -> Promise<Int> {
        Promise { seal in
            run(command) { result in
                seal.resolve(result)
            }
        }
    }

    func load(name: String, then: @escaping @Sendable (String?, Error?) -> Void) {
        then(name, nil)
    }

    /// Promise-based alternative to `load(name:then:)`, added by vow-migrate.
    func load(name: String) -> Promise<String> {
        Promise { seal in
            load(name: name) { value, error in
                seal.resolve(value, error)
            }
        }
    }
}
