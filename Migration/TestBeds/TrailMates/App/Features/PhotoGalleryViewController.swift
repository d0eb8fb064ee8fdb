import Foundation

/// A hike's photos as a grid, loaded all at once.
@MainActor
final class PhotoGalleryViewController: ViewController {
    let grid = TableView(name: "gallery")
    let cover = Label(name: "gallery.cover")
    private var loader: PhotoGalleryLoader?
    let hikeID: Int
    let photoCount: Int

    init(hikeID: Int, photoCount: Int) {
        self.hikeID = hikeID
        self.photoCount = photoCount
        super.init(title: "Photos")
    }

    /// The gallery as the hike summary opens it.
    class func make(for hike: Hike, photoCount: Int) -> PhotoGalleryViewController {
        PhotoGalleryViewController(hikeID: hike.id, photoCount: photoCount)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        let cover = self.cover
        loader = PhotoGalleryLoader(hikeID: hikeID) { image in
            DispatchQueue.main.async { cover.text = image ?? "no cover" }
        }
        loadGrid()
    }

    /// Every thumbnail at once; the grid fills when the last one answers, keeping the order,
    /// with a gap for each that failed.
    private func loadGrid() {
        guard let loader else { return }
        let cells = LockedDictionary<Int, String>()
        let remaining = Countdown(photoCount)
        for index in 0..<photoCount {
            loader.thumbnail(at: index) { image, error in
                cells[index] = error == nil ? (image ?? "?") : "gap"
                guard remaining.tick() else { return }
                DispatchQueue.main.async {
                    self.grid.reload((0..<self.photoCount).map { cells[$0] ?? "?" })
                }
            }
        }
    }
}

/// Counts answers down; `tick()` is true for the last one.
final class Countdown: @unchecked Sendable {
    private let lock = NSLock()
    private var left: Int

    init(_ count: Int) {
        left = count
    }

    func tick() -> Bool {
        lock.lock(); defer { lock.unlock() }
        left -= 1
        return left == 0
    }
}
