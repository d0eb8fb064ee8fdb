import Foundation

/// Shown when the hiker taps Finish: saves the hike and says how it went.
@MainActor
final class HikeSummaryViewController: ViewController {
    let result = Label(name: "summary.result")
    let invitations = Label(name: "summary.invitations")
    let finishButton = Button(title: "Finish")
    let spinner = ActivityIndicator(name: "summary.spinner")
    private let viewModel: HikeRecorderViewModel
    var companions: [String] = []
    var onDone: (() -> Void)?

    init(viewModel: HikeRecorderViewModel) {
        self.viewModel = viewModel
        super.init(title: "Hike Summary")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        finishButton.addAction { [weak self] in
            self?.finish()
        }
    }

    private func finish() {
        spinner.startAnimating()
        finishButton.isEnabled = false
        viewModel.finish { outcome in
            DispatchQueue.main.async { [weak self] in
                guard let self = self else { return }
                self.spinner.stopAnimating()
                switch outcome {
                case .saved(let photos, let failedPhotos):
                    self.result.text = failedPhotos == 0 ? "Saved with \(photos) photos" : "Saved; \(failedPhotos) of \(photos + failedPhotos) photos failed"
                    self.inviteCompanions()
                case .tooShort:
                    self.askToKeepRecording()
                case .failed(let message):
                    self.finishButton.isEnabled = true
                    self.result.text = message
                }
            }
        }
    }

    private func inviteCompanions() {
        guard !companions.isEmpty else {
            onDone?()
            return
        }
        viewModel.invite(companions) { accepted, declined in
            DispatchQueue.main.async {
                var parts: [String] = []
                if !accepted.isEmpty { parts.append("invited \(accepted.joined(separator: ", "))") }
                if !declined.isEmpty { parts.append("\(declined.joined(separator: ", ")) declined") }
                self.invitations.text = parts.isEmpty ? "nobody invited" : parts.joined(separator: "; ")
                self.onDone?()
            }
        }
    }

    private func askToKeepRecording() {
        let alert = UIAlertController(title: "Too short", message: "This hike is too short to save.")
        alert.addAction(UIAlertAction(title: "Keep Recording", style: .cancel) { [weak self] _ in
            self?.finishButton.isEnabled = true
        })
        alert.addAction(UIAlertAction(title: "Discard", style: .destructive) { [weak self] _ in
            guard let self else { return }
            HikeService.shared.deleteHike(id: self.viewModel.hike.id) { error in
                DispatchQueue.main.async {
                    self.result.text = error == nil ? "Discarded" : "Could not discard: \(describe(error!))"
                    self.onDone?()
                }
            }
        })
        present(alert, animated: true)
    }
}
