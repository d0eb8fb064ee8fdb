import Foundation
import PromiseKit

/// Settings: order notifications, and the diagnostics panel in debug builds.
final class SettingsViewController: ViewController, @unchecked Sendable {
    let notifications = Label(name: "settings.notifications")
    let diagnostics = Label(name: "settings.diagnostics")
    let notificationsButton = Button(title: "Order Updates")
    private let service: NotificationService

    init(service: NotificationService = .shared) {
        self.service = service
        super.init(title: "Settings")
    }

    override func viewDidLoad() {
        notificationsButton.addAction { [weak self] in
            guard let self = self else { return }
            self.notificationsButton.isEnabled = false
            self.service.enableOrderUpdates().done { enabled in
                self.notifications.text = enabled ? "On" : "Off (allow notifications in Settings)"
            }.ensure {
                self.notificationsButton.isEnabled = true
            }.catch { error in
                self.notifications.text = describe(error)
            }
        }
    }

    func runDiagnostics() {
        #if DEBUG
        Diagnostics.run().done { summary in
            self.diagnostics.text = summary
        }.cauterize()
        #else
        diagnostics.text = "not available"
        #endif
    }
}
