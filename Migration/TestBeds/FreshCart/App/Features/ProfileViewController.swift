import Foundation
import PromiseKit

/// The shopper's profile: name, points, default address.
final class ProfileViewController: ViewController, @unchecked Sendable {
    let name = Label(name: "profile.name")
    let address = Label(name: "profile.address")
    let points = Label(name: "profile.points")
    let spinner = ActivityIndicator(name: "profile.spinner")
    let signOutButton = Button(title: "Sign Out")
    private let profile: ProfileRepository
    private let auth: AuthService
    var onSignedOut: (() -> Void)?

    init(profile: ProfileRepository = .shared, auth: AuthService = .shared) {
        self.profile = profile
        self.auth = auth
        super.init(title: "Profile")
    }

    override func viewDidLoad() {
        signOutButton.addAction { [weak self] in
            guard let self else { return }
            self.auth.signOut().done {
                self.onSignedOut?()
            }
        }
        load()
    }

    func load() {
        spinner.startAnimating()
        profile.profileAndAddresses().done { user, addresses in
            self.name.text = user.name
            guard let home = addresses.first(where: { $0.isDefault }) ?? addresses.first else {
                self.address.text = "No address yet"
                return
            }
            self.address.text = "\(home.label): \(home.street)"
        }.ensure {
            self.spinner.stopAnimating()
        }.catch { error in
            self.name.text = describe(error)
        }
        profile.loyaltyPoints().done { points in
            self.points.text = points == 0 ? "No points yet" : "\(points) points"
        }
    }

    /// "Deliver here" under the address.
    func confirmAddressTapped() {
        confirmAddress().done { text in
            Analytics.shared.track("address confirmed: \(text)")
        }.catch { error in
            self.address.text = describe(error)
        }
    }

    /// The address the next order goes to.
    func confirmAddress() -> Promise<String> {
        return profile.defaultAddress().map(on: DispatchQueue.global()) { address in
            Effects.shared.record("profile: formatting address")
            return "\(address.label): \(address.street)"
        }.get { text in
            self.address.text = text
        }
    }
}
