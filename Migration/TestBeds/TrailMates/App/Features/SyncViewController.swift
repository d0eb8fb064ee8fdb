import Foundation

/// The sync screen: progress page by page, a cancel button, and the outcome.
@MainActor
final class SyncViewController: ViewController, SyncEngineDelegate {
    let progress = Label(name: "sync.progress")
    let outcome = Label(name: "sync.outcome")
    let cancelButton = Button(title: "Cancel Sync")
    let spinner = ActivityIndicator(name: "sync.spinner")
    private let engine: SyncEngine
    var pendingHikes: [Hike] = []

    init(engine: SyncEngine = .shared) {
        self.engine = engine
        super.init(title: "Sync")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        engine.delegate = self
        cancelButton.addAction { [weak self] in
            self?.engine.cancel()
            self?.cancelButton.isEnabled = false
        }
    }

    nonisolated func syncEngine(_ engine: SyncEngine, didLoadPage page: Int, trailCount: Int) {
        progress.text = "page \(page): \(trailCount) trails"
    }

    func start() {
        spinner.startAnimating()
        cancelButton.isEnabled = true
        engine.sync(pendingHikes: pendingHikes) { result in
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                self.spinner.stopAnimating()
                self.cancelButton.isEnabled = false
                switch result {
                case .success(let summary):
                    self.outcome.text = "\(summary.trails) trails, \(summary.openTrails) open, \(summary.uploadedTracks) tracks uploaded"
                case .failure(SyncError.cancelled):
                    self.outcome.text = "Sync cancelled"
                case .failure(let error):
                    self.outcome.text = "Sync failed: \(describe(error))"
                }
            }
        }
    }

    /// Offline comments go up together, without the rest of the queue.
    func sendComments() {
        DispatchQueue.global().async {
            OfflineQueue.shared.replayComments { posted in
                DispatchQueue.main.async { self.outcome.text = "\(posted) comments posted" }
            }
        }
    }
}
