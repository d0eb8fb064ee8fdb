import Foundation

/// Friends: the list, finding a hiker by handle, and inviting them to the last hike.
@MainActor
final class FriendsViewController: ViewController {
    let list = TableView(name: "friends")
    let status = Label(name: "friends.status")
    let spinner = ActivityIndicator(name: "friends.spinner")
    private var friends: [User] = []
    private var observer: NotificationHub.Observer?
    var lastHikeID = 0

    init() {
        super.init(title: "Friends")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        observer = NotificationHub.default.addObserver(forName: .friendsDidChange) { _ in
            FriendService.shared.fetchFriends { friends, error in
                DispatchQueue.main.async { [weak self] in
                    guard let self, let friends else { return }
                    self.show(friends)
                }
            }
        }
        reload()
    }

    func reload() {
        spinner.startAnimating()
        FriendService.shared.fetchFriends { friends, error in
            DispatchQueue.main.async { [weak self] in
                guard let self = self else { return }
                self.spinner.stopAnimating()
                if let error = error {
                    self.status.text = describe(error)
                    return
                }
                self.show(friends ?? [])
            }
        }
    }

    private func show(_ friends: [User]) {
        self.friends = friends
        list.reload(friends.map { "@\($0.handle)" })
    }

    /// "Add friend": looks the handle up, asks for confirmation, then invites them.
    func addFriend(handle: String) {
        status.text = "Looking for @\(handle)…"
        UserService.shared.findUser(handle: handle) { user, error in
            if let error = error {
                DispatchQueue.main.async { self.status.text = describe(error) }
                return
            }
            guard let user = user else {
                DispatchQueue.main.async { self.status.text = "No hiker is called @\(handle)." }
                return
            }
            DispatchQueue.main.async {
                self.confirmInvite(user)
            }
        }
    }

    private func confirmInvite(_ user: User) {
        let alert = UIAlertController(title: "Invite @\(user.handle)?", message: "\(user.displayName) has done \(user.hikesCompleted) hikes.")
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(UIAlertAction(title: "Invite", style: .default) { _ in
            FriendService.shared.invite(user.handle, to: self.lastHikeID) { ok, error in
                if let error {
                    DispatchQueue.main.async { self.status.text = "Invitation failed: \(describe(error))" }
                    return
                }
                if !ok {
                    DispatchQueue.main.async { self.status.text = "@\(user.handle) does not accept invitations." }
                    return
                }
                NotificationHub.default.post(name: .friendsDidChange)
                DispatchQueue.main.async { self.status.text = "Invited @\(user.handle)." }
            }
        })
        present(alert, animated: true)
    }

    /// Opens a friend's profile, its avatar preloaded.
    func open(row: Int) {
        guard row < friends.count, let navigation = navigationController else { return }
        ProfileViewController.open(userID: friends[row].id, from: navigation)
    }
}
