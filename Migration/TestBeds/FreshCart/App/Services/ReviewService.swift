import Foundation
import PromiseKit

/// Product reviews.
final class ReviewService: @unchecked Sendable {
    static let shared = ReviewService()
    private let api: APIClient

    init(api: APIClient = .shared) {
        self.api = api
    }

    func reviews(of product: ProductID) -> Promise<[Review]> {
        api.list(.reviews(product), of: Review.self)
    }

    /// The average rating, or nil when nobody reviewed the product.
    func averageStars(of product: ProductID) -> Guarantee<Double?> {
        return reviews(of: product).map { reviews -> Double? in
            guard !reviews.isEmpty else { return nil }
            return Double(reviews.map(\.stars).reduce(0, +)) / Double(reviews.count)
        }.recover { _ in Guarantee.value(nil) }
    }

    func post(stars: Int, for product: ProductID) -> VoidPromise {
        guard (1...5).contains(stars) else {
            return Promise(error: AppError.validation("Pick between 1 and 5 stars."))
        }
        return api.perform(.postReview(product, stars: stars))
    }
}
