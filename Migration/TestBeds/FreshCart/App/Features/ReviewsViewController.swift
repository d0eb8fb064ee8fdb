import Foundation
import PromiseKit

/// The reviews of one product, best first, and the shopper's own rating.
final class ReviewsViewController: ViewController, @unchecked Sendable {
    let productID: ProductID
    let list = TableView(name: "reviews.list")
    let status = Label(name: "reviews.status")
    private let reviews: ReviewService
    private var shown: Promise<[Review]>?

    init(productID: ProductID, reviews: ReviewService = .shared) {
        self.productID = productID
        self.reviews = reviews
        super.init(title: "Reviews")
    }

    override func viewDidLoad() {
        let loading = reviews.reviews(of: productID).map { reviews in
            reviews.sorted { $0.stars > $1.stars }
        }
        shown = loading
        show(loading)
    }

    /// Shows whatever list it is handed: the first load, or the list after rating.
    private func show(_ list: Promise<[Review]>) {
        list.done { reviews in
            self.list.reload(reviews.map { "\($0.stars)* \($0.text)" })
            self.status.text = reviews.isEmpty ? "Be the first to review" : "\(reviews.count) reviews"
        }.catch { error in
            self.status.text = describe(error)
        }
    }

    func rate(_ stars: Int) {
        show(reviews.post(stars: stars, for: productID).then { _ in
            self.reviews.reviews(of: self.productID)
        })
    }
}
