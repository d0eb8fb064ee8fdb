import Foundation

// Scenario building blocks: open a screen the way the app would, tap what the user taps.

/// A screen pushed on a fresh navigation stack, loaded.
func pushed<Screen: ViewController>(_ screen: Screen) -> Screen {
    _ = NavigationController(root: screen)
    return screen
}

func topAlert() -> UIAlertController? {
    ViewController.topmost.current as? UIAlertController
}

func tapAlert(_ title: String) {
    guard let alert = topAlert() else {
        Effects.shared.record("no alert to tap \(title) on")
        return
    }
    alert.tap(title)
}

func loginScreen(email: String = "ada@fresh.cart", password: String = "secret") -> LoginViewController {
    let window = ViewController(title: "window")
    let login = LoginViewController()
    login.emailField.text = email
    login.passwordField.text = password
    login.onSignedIn = { user in Effects.shared.record("signed in \(user.name)") }
    window.present(login, animated: false)
    return login
}

/// A checkout screen on the cart's navigation stack, placing its order at once.
func checkout(coupon: String? = nil, payment: PaymentProcessing = CardPaymentProcessor()) -> CheckoutViewController {
    let navigation = NavigationController(root: ViewController(title: "cart"))
    let coordinator = CheckoutCoordinator(navigation: navigation)
    Stage.checkout = coordinator
    coordinator.start(coupon: coupon, payment: payment)
    return navigation.topViewController as! CheckoutViewController
}

/// Keeps what a step needs alive until the scenario is over.
enum Stage {
    nonisolated(unsafe) static var checkout: CheckoutCoordinator?
    nonisolated(unsafe) static var kept: [AnyObject] = []
}

func keep(_ object: AnyObject) {
    Stage.kept.append(object)
}
