import Foundation

/// In-app banners ("Synced", "You are offline") over whatever screen shows. The app's own
/// `dismiss`, not the view controller's.
@MainActor
final class BannerPresenter {
    static let shared = BannerPresenter()

    let banner = Label(name: "banner")
    private(set) var isShowing = false

    func show(_ text: String) {
        banner.text = text
        isShowing = true
    }

    /// Hides the banner; `completion` runs once it is gone (at once when none shows).
    func dismiss(animated: Bool, completion: (@MainActor () -> Void)? = nil) {
        guard isShowing else {
            completion?()
            return
        }
        isShowing = false
        banner.text = nil
        if let completion { DispatchQueue.main.async { completion() } }
    }

    /// Shows `text` until `work` reports back, then the outcome it names.
    func show(_ text: String, until work: (@escaping @Sendable (String) -> Void) -> Void) {
        show(text)
        work { outcome in
            DispatchQueue.main.async {
                self.dismiss(animated: true) {
                    self.show(outcome)
                }
            }
        }
    }
}
