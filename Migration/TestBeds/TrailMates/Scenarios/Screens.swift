import Foundation

// Scenario building blocks: open a screen the way the app would, fill in what the user types.

@MainActor
func loginScreen(email: String = "ada@trail.app", password: String = "secret") -> LoginViewController {
    let window = ViewController(title: "window")
    let login = LoginViewController()
    login.emailField.text = email
    login.passwordField.text = password
    window.present(login, animated: false)
    return login
}

@MainActor
func topAlert() -> UIAlertController? {
    ViewController.topmost as? UIAlertController
}

@MainActor
func tapAlert(_ title: String) {
    guard let alert = topAlert() else {
        Effects.shared.record("no alert to tap \(title) on")
        return
    }
    alert.tap(title)
}

@MainActor
func trailDetail(_ trailID: Int) -> TrailDetailViewController {
    let navigation = NavigationController(root: ViewController(title: "home"))
    let detail = TrailDetailViewController(trailID: trailID)
    navigation.push(detail, animated: false)
    return detail
}

@MainActor
func hikeSummary(captions: [String], companions: [String]) -> HikeSummaryViewController {
    let recorder = HikeRecorderViewModel(hike: Hike(id: 71, trailID: 1, distanceKm: 9.5, isFinished: false))
    recorder.record(TrackPoint(latitude: 46.5, longitude: 7.9, elevation: 1200))
    recorder.captions = captions
    let summary = HikeSummaryViewController(viewModel: recorder)
    summary.companions = companions
    let window = ViewController(title: "recorder")
    summary.onDone = { [weak summary] in
        summary?.dismiss(animated: true) {
            Effects.shared.record("hike flow done")
        }
    }
    window.present(summary, animated: false)
    return summary
}

@MainActor
func profileScreen(_ userID: Int) -> ProfileViewController {
    let profile = ProfileViewController(viewModel: ProfileViewModel(userID: userID))
    NavigationController(root: ViewController(title: "friends")).push(profile, animated: false)
    return profile
}

@MainActor
func friendsScreen() -> FriendsViewController {
    let friends = FriendsViewController()
    friends.lastHikeID = 71
    _ = NavigationController(root: friends)
    return friends
}

@MainActor
func settingsScreen() -> SettingsViewController {
    let window = ViewController(title: "window")
    let settings = SettingsViewController()
    settings.onSignedOut = { Effects.shared.record("signed out") }
    window.present(settings, animated: false)
    return settings
}

@MainActor
func syncScreen(pending: [Int] = []) -> SyncViewController {
    let sync = SyncViewController()
    sync.loadViewIfNeeded()
    sync.pendingHikes = pending.map { Hike(id: $0, trailID: 1, distanceKm: 3, isFinished: true) }
    Stage.sync = sync
    return sync
}

@MainActor
func historyModel() -> HikeHistoryViewModel {
    let model = HikeHistoryViewModel()
    model.onChange = { hikes in Effects.shared.record("history: \(hikes.map(\.id))") }
    model.onError = { message in Effects.shared.record("history error: \(message)") }
    return model
}
