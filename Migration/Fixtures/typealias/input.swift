import Foundation

struct Profile: Sendable {
    let bio: String
}

typealias ProfileCompletion = @Sendable (Profile?, Error?) -> Void
typealias DoneHandler = @Sendable (Result<Int, Error>) -> Void

final class ProfileService: Sendable {
    func profile(userID: Int, completion: @escaping ProfileCompletion) {
        completion(Profile(bio: "hi"), nil)
    }

    func count(completion: @escaping DoneHandler) {
        completion(.success(3))
    }
}
