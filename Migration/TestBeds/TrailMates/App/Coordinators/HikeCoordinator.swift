import Foundation

/// From a trail's details to a recorded hike: start, record, finish, summary.
@MainActor
final class HikeCoordinator {
    private let navigation: NavigationController
    private let trailID: Int
    private var recorder: HikeRecorderViewModel?
    var onFinish: (() -> Void)?
    var companions: [String] = []

    init(navigation: NavigationController, trailID: Int) {
        self.navigation = navigation
        self.trailID = trailID
    }

    func start() {
        let detail = TrailDetailViewController(trailID: trailID)
        detail.onTrailGone = { [weak self] in
            self?.navigation.popViewController(animated: true)
            self?.onFinish?()
        }
        detail.onStartedHike = { [weak self] hike in
            self?.record(hike)
        }
        navigation.push(detail, animated: true)
    }

    private func record(_ hike: Hike) {
        let recorder = HikeRecorderViewModel(hike: hike)
        self.recorder = recorder
        recorder.record(TrackPoint(latitude: 46.5, longitude: 7.9, elevation: 1200))
        recorder.record(TrackPoint(latitude: 46.6, longitude: 7.95, elevation: 1450))
        recorder.captions = ["summit", "lake", "ibex"]
        let summary = HikeSummaryViewController(viewModel: recorder)
        summary.companions = companions
        summary.onDone = { [weak self, weak summary] in
            summary?.dismiss(animated: true) {
                self?.onFinish?()
            }
        }
        navigation.present(summary, animated: true)
    }

    /// Resumes a hike the app was recording when it was closed: the server knows the latest
    /// state; a finished one shows its summary, one on no page is forgotten.
    func resume(hikeID: Int) {
        @Sendable func forget() {
            KeyValueStore.standard.set(nil, forKey: "recordingHike")
        }
        @Sendable func lookUp(page: Int) {
            HikeService.shared.fetchHikes(page: page) { result in
                DispatchQueue.main.async {
                    switch result {
                    case .success(let hikes) where hikes.isEmpty:
                        forget()
                    case .success(let hikes):
                        if let hike = hikes.first(where: { $0.id == hikeID }) {
                            self.show(hike)
                        } else {
                            lookUp(page: page + 1)
                        }
                    case .failure:
                        BannerPresenter.shared.show("Could not resume your hike")
                    }
                }
            }
        }
        lookUp(page: 1)
    }

    private func show(_ hike: Hike) {
        if hike.isFinished {
            KeyValueStore.standard.set(nil, forKey: "recordingHike")
            BannerPresenter.shared.show("Hike \(hike.id) was already saved")
        } else {
            record(hike)
        }
    }
}
