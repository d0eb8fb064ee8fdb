// Hidden prelude for code blocks: a callback API to wrap. `User` comes from the block itself.
import Dispatch

func legacyFetchUser(id: Int, completion: @escaping @Sendable (User?, Error?) -> Void) {
    DispatchQueue.global().async { completion(User(id: id, name: "Ada"), nil) }
}
