import Foundation

final class Pipeline: Sendable {
    func run(retry: @escaping @Sendable (Result<Int, Error>) -> Bool, completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
        completion(.success(1))
    }
}
