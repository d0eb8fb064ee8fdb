import Foundation

/// One trail: details, live conditions, elevation, comments, and starting a hike on it.
@MainActor
final class TrailDetailViewController: ViewController {
    let name = Label(name: "trail.name")
    let conditionsLabel = Label(name: "trail.conditions")
    let elevationLabel = Label(name: "trail.elevation")
    let comments = TableView(name: "trail.comments")
    let startButton = Button(title: "Start Hike")
    let spinner = ActivityIndicator(name: "trail.spinner")
    var onStartedHike: ((Hike) -> Void)?
    var onTrailGone: (() -> Void)?

    /// Setting another trail (from a deep link, say) reloads the screen.
    var trailID: Int {
        didSet {
            guard trailID != oldValue else { return }
            TrailService.shared.trailDetails(id: trailID) { trail, error in
                DispatchQueue.main.async { [weak self] in
                    guard let self else { return }
                    if let trail { self.name.text = trail.name } else if error == nil { self.onTrailGone?() }
                }
            }
        }
    }

    init(trailID: Int) {
        self.trailID = trailID
        super.init(title: "Trail \(trailID)")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        startButton.addAction { [weak self] in
            self?.startHike()
        }
        reload()
    }

    func reload() {
        spinner.startAnimating()
        let trailID = self.trailID
        TrailService.shared.trailDetails(id: trailID) { trail, error in
            if let error = error {
                DispatchQueue.main.async { [weak self] in
                    self?.spinner.stopAnimating()
                    self?.name.text = describe(error)
                }
                return
            }
            guard let trail = trail else {
                // Removed since the list was loaded: the screen goes back.
                DispatchQueue.main.async { [weak self] in
                    self?.spinner.stopAnimating()
                    self?.onTrailGone?()
                }
                return
            }
            TrailService.shared.conditions(for: trail.id) { conditions in
                TrailService.shared.elevation(of: trail.id) { gain, loss, error in
                    DispatchQueue.main.async { [weak self] in
                        guard let self else { return }
                        self.spinner.stopAnimating()
                        self.name.text = "\(trail.name), \(trail.lengthKm) km, \(trail.difficulty.rawValue)"
                        self.conditionsLabel.text = conditions.isOpen ? conditions.summary : "Closed: \(conditions.summary)"
                        self.elevationLabel.text = error == nil ? "+\(Int(gain)) m / -\(Int(loss)) m" : "elevation unavailable"
                        self.startButton.isEnabled = conditions.isOpen
                    }
                }
            }
        }
    }

    func loadComments() {
        TrailService.shared.comments(on: trailID) {
            switch $0 {
            case .success(let list):
                DispatchQueue.main.async { self.comments.reload(list.map { "\($0.author): \($0.text)" }) }
            case .failure:
                DispatchQueue.main.async { self.comments.reload([]) }
            }
        }
    }

    func postComment(_ text: String) {
        let trailID = self.trailID
        TrailService.shared.postComment(text, on: trailID) { error in
            guard error == nil else {
                OfflineQueue.shared.enqueue(.comment(trailID: trailID, text: text))
                return
            }
            DispatchQueue.main.async { self.loadComments() }
        }
    }

    private func startHike() {
        startButton.isEnabled = false
        HikeService.shared.startHike(on: trailID) { result in
            DispatchQueue.main.async {
                self.startButton.isEnabled = true
                switch result {
                case .success(let hike):
                    self.onStartedHike?(hike)
                case .failure(let error):
                    let alert = UIAlertController(title: "Could not start", message: describe(error))
                    alert.addAction(UIAlertAction(title: "OK", style: .cancel))
                    self.present(alert, animated: true)
                }
            }
        }
    }
}
