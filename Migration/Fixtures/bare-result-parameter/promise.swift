import Foundation
import Vow

final class Pipeline: Sendable {
    func run(retry: @escaping @Sendable (Swift.Result<Int, Error>) -> Bool, completion: @escaping @Sendable (Swift.Result<Int, Error>) -> Void) {
        completion(.success(1))
    }

    /// Promise-based alternative to `run(retry:completion:)`, added by vow-migrate.
    func run(retry: @escaping @Sendable (Swift.Result<Int, Error>) -> Bool) -> Promise<Int> {
        Promise { seal in
            run(retry: retry) { result in
                seal.resolve(result)
            }
        }
    }
}
