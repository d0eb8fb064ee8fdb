import Foundation
import PromiseKit

/// What went wrong talking to the backend.
enum APIError: Error, Equatable {
    case status(Int)
    case unauthorized
    case notFound
    case decoding(String)
    case offline
    case timedOut
}

/// What went wrong in the app's own rules.
enum AppError: Error, Equatable {
    case emptyCart
    case storeClosed(String)
    case outOfStock(String)
    case noDeliverySlot
    case paymentDeclined
    case invalidCoupon(String)
    case signedOut
    case validation(String)
}

/// The sentence a screen shows for an error.
func describe(_ error: Error) -> String {
    switch error {
    case let api as APIError:
        switch api {
        case .status(let code): return "The server had a problem (\(code))."
        case .unauthorized: return "Please sign in again."
        case .notFound: return "That is no longer available."
        case .decoding(let what): return "Unexpected answer for \(what)."
        case .offline: return "You are offline."
        case .timedOut: return "The server took too long."
        }
    case let app as AppError:
        switch app {
        case .emptyCart: return "Your cart is empty."
        case .storeClosed(let name): return "\(name) is closed."
        case .outOfStock(let name): return "\(name) is out of stock."
        case .noDeliverySlot: return "No delivery slot is free."
        case .paymentDeclined: return "Your payment was declined."
        case .invalidCoupon(let code): return "The coupon \(code) is not valid."
        case .signedOut: return "You are signed out."
        case .validation(let message): return message
        }
    case PMKError.cancelled:
        return "Cancelled."
    case let network as NetworkError:
        return "Network problem: \(network)."
    default:
        return "Something went wrong: \(error)"
    }
}

/// Errors a retry can help with: the server or the network, not the request itself.
func isTransient(_ error: Error) -> Bool {
    switch error {
    case APIError.status(let code): return code >= 500
    case APIError.offline, APIError.timedOut: return true
    default: return false
    }
}
