import Foundation

struct Account: Sendable {
    let id: Int
    let email: String
}

struct Avatar: Sendable {
    let url: String
}

struct Dashboard: Sendable {
    let account: Account
    let avatar: Avatar
}

enum LookupError: Error {
    case notFound
}

final class AccountService: Sendable {
    private let accounts: [Int: Account] = [1: Account(id: 1, email: "ada@example.com")]

    // Answers from memory: converted.
    func account(id: Int, completion: @escaping @Sendable (Account?, Error?) -> Void) {
        guard let account = accounts[id] else {
            completion(nil, LookupError.notFound)
            return
        }
        completion(account, nil)
    }

    // Answers through a Result: converted.
    func avatar(for account: Account, completion: @escaping @Sendable (Result<Avatar, Error>) -> Void) {
        if account.email.isEmpty {
            completion(.failure(LookupError.notFound))
        } else {
            let url = "https://example.com/\(account.id).png"
            completion(.success(Avatar(url: url)))
        }
    }

    // Waits only for functions that are converted too: the pyramid becomes straight-line code.
    func dashboard(accountID: Int, completion: @escaping @Sendable (Result<Dashboard, Error>) -> Void) {
        account(id: accountID) { account, error in
            guard let account else {
                completion(.failure(error ?? LookupError.notFound))
                return
            }
            self.avatar(for: account) { result in
                switch result {
                case .success(let avatar):
                    completion(.success(Dashboard(account: account, avatar: avatar)))
                case .failure(let error):
                    completion(.failure(error))
                }
            }
        }
    }

    // Hands its handler to DispatchQueue, which has no alternative: reported, left alone.
    func refresh(completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async {
            completion(nil)
        }
    }
}
