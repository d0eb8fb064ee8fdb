import Foundation

/// The signed-in user's account.
public final class AccountService: APIClient {
    /// The account, from the cache when fresh.
    public func account(completion: @escaping AccountCompletion) {
        fetch(HTTPRequest(path: "me"), as: Account.self) { result in
            switch result {
            case .success(let account):
                completion(account, nil)
            case .failure(let error):
                completion(nil, error)
            }
        }
    }

    /// Changes the name other users see.
    public func updateDisplayName(_ name: String, completion: VoidCompletion? = nil) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard (2...40).contains(trimmed.count) else {
            completion?(SDKError.invalidArgument("a display name has 2 to 40 characters"))
            return
        }
        do {
            let request = try HTTPRequest.json(.patch, "me", ["display_name": trimmed])
            send(request) { [weak self] error in
                if error == nil {
                    self?.cache.removeEntries(withPrefix: "me")
                }
                completion?(error)
            }
        } catch {
            completion?(error)
        }
    }

    /// Deletes the account for good; the session is signed out afterwards.
    public func deleteAccount(confirmation: String, completion: @escaping (Bool, Error?) -> Void) {
        guard confirmation == "DELETE" else {
            completion(false, SDKError.invalidArgument("type DELETE to confirm"))
            return
        }
        send(HTTPRequest(method: .delete, path: "me")) { [session] error in
            if let error = error {
                completion(false, error)
                return
            }
            session.signOut { _ in
                completion(true, nil)
            }
        }
    }
}
