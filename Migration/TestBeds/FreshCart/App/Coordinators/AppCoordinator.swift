import Foundation
import PromiseKit

/// Decides what the app shows first, and moves between the main screens.
final class AppCoordinator: @unchecked Sendable {
    let window: ViewController
    let navigation: NavigationController
    let status = Label(name: "app.status")
    private let auth: AuthService
    private let profile: ProfileRepository
    private var checkout: CheckoutCoordinator?

    init(window: ViewController, auth: AuthService = .shared, profile: ProfileRepository = .shared) {
        self.window = window
        self.auth = auth
        self.profile = profile
        self.navigation = NavigationController(root: ViewController(title: "launch"))
    }

    /// The saved session, refreshed if it expired, then the profile; the sign-in screen when
    /// any of that fails.
    func start() {
        status.text = "starting"
        auth.restoreSession().then { _ in
            self.profile.me()
        }.done { user in
            self.status.text = "signed in as \(user.name)"
            self.showHome()
        }.catch { error in
            if case AppError.signedOut = error {
                self.status.text = "sign in"
            } else {
                self.status.text = describe(error)
            }
            self.showLogin()
        }
    }

    func showLogin() {
        let login = LoginViewController()
        login.onSignedIn = { [weak self] _ in
            self?.window.dismiss(animated: true)
            self?.showHome()
        }
        window.present(login, animated: true)
    }

    func showHome() {
        let home = HomeViewController()
        home.onOpenStore = { [unowned self] store in
            self.showStore(store.id)
        }
        navigation.push(home, animated: true)
    }

    func showStore(_ id: StoreID) {
        let store = StoreViewController(storeID: id)
        store.onOpenProduct = { [weak self] productID in
            self?.navigation.push(ProductDetailViewController(productID: productID), animated: true)
        }
        navigation.push(store, animated: true)
    }

    func showCart() {
        let cart = CartViewController()
        cart.onCheckout = { [weak self] _ in
            guard let self else { return }
            let coordinator = CheckoutCoordinator(navigation: self.navigation)
            self.checkout = coordinator
            coordinator.start()
        }
        navigation.push(cart, animated: true)
    }

    /// Starts warming the caches once the shopper is in.
    func startPrefetch() {
        prefetch().done {
            Effects.shared.record("prefetch over")
        }
    }

    /// Warms the caches the home screen reads, in the background, after signing in.
    func prefetch() -> Guarantee<Void> {
        let catalog = CatalogRepository.shared
        return catalog.stores().then(on: DispatchQueue.global()) { stores in
            when(fulfilled: stores.prefix(2).map { catalog.categories(in: $0.id) })
        }.done(on: DispatchQueue.global()) { categories in
            Effects.shared.record("prefetched \(categories.count) category lists")
        }.recover { _ in
            Effects.shared.record("prefetch skipped")
        }
    }
}
