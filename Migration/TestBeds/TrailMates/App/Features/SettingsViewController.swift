import Foundation

/// Settings: push notifications, replaying offline changes, signing out.
@MainActor
final class SettingsViewController: ViewController {
    let pushLabel = Label(name: "settings.push")
    let offlineLabel = Label(name: "settings.offline")
    let pushButton = Button(title: "Enable Notifications")
    let signOutButton = Button(title: "Sign Out")
    let replayButton = Button(title: "Send Offline Changes")
    var onSignedOut: (() -> Void)?

    init() {
        super.init(title: "Settings")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        pushButton.addAction { [weak self] in
            self?.enableNotifications()
        }
        signOutButton.addAction { [weak self] in
            self?.confirmSignOut()
        }
        replayButton.addAction {
            OfflineQueue.shared.replay { sent, error in
                DispatchQueue.main.async {
                    if let error {
                        self.offlineLabel.text = "Sent \(sent); stopped: \(describe(error))"
                    } else {
                        self.offlineLabel.text = "Sent \(sent) changes"
                    }
                }
            }
        }
    }

    func enableNotifications() {
        PushService.shared.requestPermission { granted, error in
            guard granted, error == nil else {
                DispatchQueue.main.async {
                    self.pushLabel.text = error == nil ? "Notifications are off. Turn them on in Settings." : describe(error!)
                }
                return
            }
            PushService.shared.registerDevice { error in
                DispatchQueue.main.async {
                    if let error = error {
                        self.pushLabel.text = "Could not register: \(describe(error))"
                    } else {
                        self.pushLabel.text = "Notifications on"
                    }
                }
            }
        }
    }

    private func confirmSignOut() {
        let alert = UIAlertController(title: "Sign out?", message: "Offline changes not yet sent will be lost.")
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel))
        alert.addAction(UIAlertAction(title: "Sign Out", style: .destructive) { [weak self] _ in
            AuthService.shared.logout { error in
                DispatchQueue.main.async {
                    if error != nil {
                        self?.offlineLabel.text = "Signed out on this device only"
                    }
                    self?.dismiss(animated: true) {
                        self?.onSignedOut?()
                    }
                }
            }
        })
        present(alert, animated: true)
    }
}
