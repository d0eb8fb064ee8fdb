import Foundation

/// The sign-in form. A failed sign-in shows an alert offering to try again.
@MainActor
final class LoginViewController: ViewController {
    let emailField = Label(name: "login.email")
    let passwordField = Label(name: "login.password")
    let status = Label(name: "login.status")
    let signInButton = Button(title: "Sign In")
    let spinner = ActivityIndicator(name: "login.spinner")
    private let viewModel: LoginViewModel
    var onSignedIn: ((User) -> Void)?

    init(viewModel: LoginViewModel? = nil) {
        self.viewModel = viewModel ?? LoginViewModel()
        super.init(title: "Sign In")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        viewModel.onChange = { [weak self] state in
            self?.render(state)
        }
        signInButton.addAction { [weak self] in
            guard let self else { return }
            self.viewModel.signIn(email: self.emailField.text ?? "", password: self.passwordField.text ?? "")
        }
    }

    private func render(_ state: LoginViewModel.State) {
        switch state {
        case .idle:
            spinner.stopAnimating()
        case .signingIn:
            signInButton.isEnabled = false
            spinner.startAnimating()
        case .failed(let message):
            spinner.stopAnimating()
            signInButton.isEnabled = true
            showFailure(message)
        case .signedIn(let user):
            spinner.stopAnimating()
            status.text = "Welcome, \(user.displayName)"
            onSignedIn?(user)
        }
    }

    private func showFailure(_ message: String) {
        let alert = UIAlertController(title: "Could not sign in", message: message)
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(UIAlertAction(title: "Try Again", style: .default) { [weak self] _ in
            self?.signInButton.sendActions()
        })
        present(alert, animated: true)
    }

    /// "Forgot password" signs in with a one-time code sent by mail: the same as signing in,
    /// written here before the view model existed.
    func signInWithCode(_ code: String, email: String) {
        spinner.startAnimating()
        AuthService.shared.login(email: email, password: code) { result in
            switch result {
            case .success(let session):
                SessionStore.shared.set(session)
                UserService.shared.fetchMe { user, error in
                    DispatchQueue.main.async {
                        self.spinner.stopAnimating()
                        if let user {
                            self.status.text = "Welcome back, \(user.displayName)"
                            self.onSignedIn?(user)
                        } else {
                            self.showFailure(describe(error ?? APIError.notFound))
                        }
                    }
                }
            case .failure(let error):
                DispatchQueue.main.async {
                    self.spinner.stopAnimating()
                    self.showFailure(describe(error))
                }
            }
        }
    }
}
