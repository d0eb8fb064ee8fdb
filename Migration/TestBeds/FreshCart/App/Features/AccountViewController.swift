import Foundation
import PromiseKit

/// Account settings: switch account, sign out of every device, change the email address.
final class AccountViewController: ViewController, @unchecked Sendable {
    let status = Label(name: "account.status")
    let signOutEverywhereButton = Button(title: "Sign Out Everywhere")
    let spinner = ActivityIndicator(name: "account.spinner")
    private let sessions: SessionManager

    init(sessions: SessionManager = .shared) {
        self.sessions = sessions
        super.init(title: "Account")
    }

    override func viewDidLoad() {
        signOutEverywhereButton.addAction { [weak self] in
            guard let self else { return }
            self.sessions.signOutEverywhere().done { succeeded in
                self.status.text = "Signed out (\(succeeded) of 2 devices told)"
            }
        }
    }

    func switchAccount(email: String, password: String) {
        spinner.startAnimating()
        sessions.switchAccount(email: email, password: password).done { user in
            self.status.text = "Now signed in as \(user.name)"
        }.ensure {
            self.spinner.stopAnimating()
        }.catch { error in
            self.status.text = "Could not switch: \(describe(error))"
        }
    }

    /// The email field lost focus: the address is checked before it is saved.
    func emailChanged(_ text: String) {
        Validation.email(text).done { email in
            self.status.text = "Email: \(email)"
        }.catch { error in
            self.status.text = describe(error)
        }
    }
}
