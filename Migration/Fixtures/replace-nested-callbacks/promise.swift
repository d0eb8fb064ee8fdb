import Foundation
import Vow

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
    func account(id: Int) -> Promise<Account> {
        guard let account = accounts[id] else {
            return Promise<Account>(error: LookupError.notFound)
        }
        return .value(account)
    }

    // Answers through a Result: converted.
    func avatar(for account: Account) -> Promise<Avatar> {
        if account.email.isEmpty {
            return Promise<Avatar>(error: LookupError.notFound)
        } else {
            let url = "https://example.com/\(account.id).png"
            return .value(Avatar(url: url))
        }
    }

    // Waits only for functions that are converted too: the pyramid becomes straight-line code.
    func dashboard(accountID: Int) -> Promise<Dashboard> {
        return self.account(id: accountID).then(on: nil) { account in
            return self.avatar(for: account).map(on: nil) { (account, $0) }
        }.map(on: nil) { account, avatar in
            Dashboard(account: account, avatar: avatar)
        }
    }

    // Hands its handler to DispatchQueue, which has no alternative: reported, left alone.
    func refresh(completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async {
            completion(nil)
        }
    }
}
