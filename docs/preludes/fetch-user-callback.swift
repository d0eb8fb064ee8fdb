// Hidden prelude for code blocks: the completion-handler function that vow-migrate's examples
// start from. Needs the `user` prelude.
import Dispatch

func fetchUser(id: Int, completion: @escaping @Sendable (User?, Error?) -> Void) {
    DispatchQueue.global().async { completion(User(id: id, name: "Ada"), nil) }
}
