import Foundation

/// First launch: permission for notifications, a first friend, a first trail to try.
@MainActor
final class OnboardingCoordinator {
    private let presenter: ViewController
    private let step = Label(name: "onboarding.step")
    var onDone: ((Bool) -> Void)?

    init(presenter: ViewController) {
        self.presenter = presenter
    }

    func start(suggestedFriend: String) {
        step.text = "notifications"
        PushService.shared.requestPermission { granted, _ in
            DispatchQueue.main.async {
                self.step.text = granted ? "notifications on" : "notifications off"
                self.suggestFriend(suggestedFriend)
            }
        }
    }

    private func suggestFriend(_ handle: String) {
        UserService.shared.findUser(handle: handle) { user, error in
            DispatchQueue.main.async {
                guard let user = user, error == nil else {
                    self.step.text = "no friend suggestion"
                    self.suggestTrail()
                    return
                }
                let alert = UIAlertController(title: "Follow @\(user.handle)?", message: nil)
                alert.addAction(UIAlertAction(title: "Skip", style: .cancel) { _ in
                    self.suggestTrail()
                })
                alert.addAction(UIAlertAction(title: "Follow", style: .default) { _ in
                    FriendService.shared.invite(user.handle, to: 0) { ok, error in
                        DispatchQueue.main.async {
                            self.step.text = ok ? "following @\(user.handle)" : "could not follow @\(user.handle)"
                            self.suggestTrail()
                        }
                    }
                })
                self.presenter.present(alert, animated: true)
            }
        }
    }

    private func suggestTrail() {
        TrailService.shared.fetchTrails(page: 1) { result in
            DispatchQueue.main.async {
                if case .success(let page) = result, let first = page.trails.first {
                    self.step.text = "try \(first.name)"
                    self.onDone?(true)
                } else {
                    self.step.text = "no trail suggestion"
                    self.onDone?(false)
                }
            }
        }
    }
}
