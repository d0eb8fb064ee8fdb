import Foundation
import PromiseKit

/// The shopper's addresses, and which one deliveries go to.
final class AddressBookViewController: ViewController, @unchecked Sendable {
    let list = TableView(name: "addresses.list")
    let status = Label(name: "addresses.status")
    private let profile: ProfileRepository
    private var addresses: [Address] = []

    init(profile: ProfileRepository = .shared) {
        self.profile = profile
        super.init(title: "Addresses")
    }

    override func viewDidLoad() {
        reload()
    }

    func reload() {
        profile.addresses().done { addresses in
            self.addresses = addresses
            self.list.reload(addresses.map { ($0.isDefault ? "* " : "") + "\($0.label): \($0.street)" })
            if addresses.isEmpty {
                self.status.text = "Add an address to get deliveries"
            }
        }.catch { error in
            self.status.text = describe(error)
        }
    }

    /// Checks the address is still on file before it becomes the default: the server may have
    /// removed it from another device.
    func makeDefault(at index: Int) {
        guard index < addresses.count else { return }
        let chosen = addresses[index]
        profile.addresses().map { current -> Address in
            guard let found = current.first(where: { $0.id == chosen.id }) else {
                throw AppError.validation("\(chosen.label) was removed on another device.")
            }
            return found
        }.done { address in
            self.status.text = "Deliveries go to \(address.label)"
            self.profile.me().done { user in
                Analytics.shared.track("\(user.name) changed address")
            }.catch { _ in
                Analytics.shared.track("address changed")
            }
        }.catch { error in
            self.status.text = describe(error)
            self.reload()
        }
    }
}
