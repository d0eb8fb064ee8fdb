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
    nonisolated(nonsending) func account(id: Int) async throws -> Account {
        guard let account = accounts[id] else {
            throw LookupError.notFound
        }
        return account
    }

    // Answers through a Result: converted.
    nonisolated(nonsending) func avatar(for account: Account) async throws -> Avatar {
        if account.email.isEmpty {
            throw LookupError.notFound
        } else {
            let url = "https://example.com/\(account.id).png"
            return Avatar(url: url)
        }
    }

    // Waits only for functions that are converted too: the pyramid becomes straight-line code.
    nonisolated(nonsending) func dashboard(accountID: Int) async throws -> Dashboard {
        let account = try await self.account(id: accountID)
        let avatar = try await self.avatar(for: account)
        return Dashboard(account: account, avatar: avatar)
    }

    // Hands its handler to DispatchQueue, which has no alternative: reported, left alone.
    func refresh(completion: @escaping @Sendable (Error?) -> Void) {
        DispatchQueue.global().async {
            completion(nil)
        }
    }
}
