import Foundation
import PromiseKit

/// Email and password, then the profile; the app coordinator takes over once signed in.
final class LoginViewController: ViewController, @unchecked Sendable {
    let emailField = TextField()
    let passwordField = TextField()
    let signInButton = Button(title: "Sign In")
    let spinner = ActivityIndicator(name: "login.spinner")
    let status = Label(name: "login.status")
    var onSignedIn: ((User) -> Void)?
    private let auth: AuthService
    private let profile: ProfileRepository

    init(auth: AuthService = .shared, profile: ProfileRepository = .shared) {
        self.auth = auth
        self.profile = profile
        super.init(title: "Sign In")
    }

    override func viewDidLoad() {
        signInButton.addAction { [weak self] in
            self?.signIn()
        }
    }

    func signIn() {
        signInButton.isEnabled = false
        spinner.startAnimating()
        firstly {
            auth.signIn(email: emailField.text, password: passwordField.text)
        }.then { _ in
            self.profile.me()
        }.get { _ in
            self.profile.registerDevice().cauterize()
        }.done { user in
            self.status.text = "Welcome, \(user.name)"
            self.onSignedIn?(user)
        }.ensure {
            self.spinner.stopAnimating()
            self.signInButton.isEnabled = true
        }.catch { error in
            self.showError(error)
        }
    }

    private func showError(_ error: Error) {
        let alert = UIAlertController(title: "Could not sign in", message: describe(error))
        alert.addAction(UIAlertAction(title: "OK", style: .cancel))
        if case APIError.status(403) = error {
            alert.addAction(UIAlertAction(title: "Try Again", style: .default) { _ in
                self.signIn()
            })
        }
        present(alert, animated: true)
    }
}
