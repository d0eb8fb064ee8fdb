import Foundation

/// A hiker's profile screen, with an edit button for the signed-in user's own profile.
@MainActor
final class ProfileViewController: ViewController {
    let nameLabel = Label(name: "profile.name")
    let hikesLabel = Label(name: "profile.hikes")
    let avatarLabel = Label(name: "profile.avatar")
    let followersLabel = Label(name: "profile.followers")
    let editButton = Button(title: "Edit")
    let viewModel: ProfileViewModel
    var proposedName = ""

    init(viewModel: ProfileViewModel) {
        self.viewModel = viewModel
        super.init(title: "Profile")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        viewModel.onHeaderChange = { [weak self] header in
            self?.nameLabel.text = header.name
            self?.hikesLabel.text = header.hikes
            self?.avatarLabel.text = header.avatar
            self?.followersLabel.text = header.followers
        }
        viewModel.onError = { [weak self] message in
            let alert = UIAlertController(title: "Profile", message: message)
            alert.addAction(UIAlertAction(title: "OK", style: .cancel) { _ in
                self?.navigationController?.popViewController(animated: true)
            })
            self?.present(alert, animated: true)
        }
        editButton.addAction { [weak self] in
            self?.askForName()
        }
        viewModel.load()
    }

    private func askForName() {
        let alert = UIAlertController(title: "Your name", message: nil)
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(UIAlertAction(title: "Save", style: .default) { [weak self] _ in
            guard let self else { return }
            self.viewModel.rename(to: self.proposedName) { saved in
                self.nameLabel.text = saved ? self.proposedName : "(not saved)"
            }
        })
        present(alert, animated: true)
    }

    /// Opens a profile from anywhere once its avatar is cached, so it never flashes a placeholder.
    static func open(userID: Int, from navigation: NavigationController) {
        ProfileViewModel.preloadAvatar(for: userID) { _ in
            DispatchQueue.main.async {
                navigation.push(ProfileViewController(viewModel: ProfileViewModel(userID: userID)), animated: true)
            }
        }
    }
}
