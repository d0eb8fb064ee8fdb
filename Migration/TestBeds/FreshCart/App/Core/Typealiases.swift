import Foundation
import PromiseKit

/// Money is kept in cents everywhere, so that a total never picks up a rounding error.
typealias Cents = Int

/// The identifiers the backend hands out.
typealias ProductID = Int
typealias StoreID = Int
typealias OrderID = Int

/// Chains that only say "done" or "failed".
typealias VoidPromise = Promise<Void>

/// What a screen is given to show a problem.
typealias ErrorPresenter = (Error) -> Void

/// Formats cents as the app shows prices ("$12.30").
func formatPrice(_ cents: Cents) -> String {
    let dollars = cents / 100
    let rest = cents % 100
    return "$\(dollars).\(rest < 10 ? "0" : "")\(rest)"
}
