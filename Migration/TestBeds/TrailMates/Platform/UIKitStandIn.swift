import Dispatch

// A Linux-buildable stand-in for the few UIKit types the app builds on. Everything runs on the
// main queue, as UIKit does; completions of presentations run on a later turn of the main queue,
// as they do after an animation.

@MainActor
class ViewController {
    var title: String
    private(set) var presentedViewController: ViewController?
    private(set) weak var presentingViewController: ViewController?
    var navigationController: NavigationController?
    private var isLoaded = false

    init(title: String) {
        self.title = title
    }

    /// Overridden by screens; called once, by `loadViewIfNeeded()`.
    func viewDidLoad() {}

    /// Overridden by screens; called by the navigation controller when the screen shows.
    func viewWillAppear() {}

    func loadViewIfNeeded() {
        guard !isLoaded else { return }
        isLoaded = true
        viewDidLoad()
    }

    func present(_ viewController: ViewController, animated: Bool, completion: (@MainActor () -> Void)? = nil) {
        viewController.presentingViewController = self
        presentedViewController = viewController
        viewController.loadViewIfNeeded()
        Effects.shared.record("present \(viewController.describedForTrace)")
        ViewController.topmost = viewController
        if let completion { DispatchQueue.main.async { completion() } }
    }

    func dismiss(animated: Bool, completion: (@MainActor () -> Void)? = nil) {
        let dismissed = presentedViewController ?? self
        Effects.shared.record("dismiss \(dismissed.title)")
        dismissed.presentingViewController?.presentedViewController = nil
        ViewController.topmost = dismissed.presentingViewController
        if let completion { DispatchQueue.main.async { completion() } }
    }

    var describedForTrace: String { title }

    /// What the user sees on top: where the scenarios tap.
    static var topmost: ViewController?
}

@MainActor
final class NavigationController: ViewController {
    private(set) var viewControllers: [ViewController] = []

    init(root: ViewController) {
        super.init(title: "navigation")
        push(root, animated: false)
    }

    func push(_ viewController: ViewController, animated: Bool) {
        viewControllers.append(viewController)
        viewController.navigationController = self
        viewController.loadViewIfNeeded()
        viewController.viewWillAppear()
        Effects.shared.record("push \(viewController.title)")
    }

    func popViewController(animated: Bool) {
        guard viewControllers.count > 1 else { return }
        let popped = viewControllers.removeLast()
        Effects.shared.record("pop \(popped.title)")
        viewControllers.last?.viewWillAppear()
    }

    var topViewController: ViewController? { viewControllers.last }
}

@MainActor
final class UIAlertAction {
    enum Style { case `default`, cancel, destructive }
    let title: String
    let style: Style
    let handler: (@MainActor (UIAlertAction) -> Void)?

    init(title: String, style: Style, handler: (@MainActor (UIAlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
    }
}

@MainActor
final class UIAlertController: ViewController {
    let message: String?
    private(set) var actions: [UIAlertAction] = []

    init(title: String, message: String?) {
        self.message = message
        super.init(title: title)
    }

    func addAction(_ action: UIAlertAction) {
        actions.append(action)
    }

    override var describedForTrace: String {
        "alert \"\(title)\"" + (message.map { ": \($0)" } ?? "") + " [" + actions.map(\.title).joined(separator: ", ") + "]"
    }

    /// The user taps a button: the alert goes away, then the action's handler runs.
    func tap(_ title: String) {
        guard let action = actions.first(where: { $0.title == title }) else {
            Effects.shared.record("no button \(title) on \(self.title)")
            return
        }
        Effects.shared.record("tap \(title)")
        dismiss(animated: true)
        action.handler?(action)
    }
}

@MainActor
final class Button {
    let title: String
    private var actions: [@MainActor () -> Void] = []
    var isEnabled = true {
        didSet { if oldValue != isEnabled { Effects.shared.record("button \(title) \(isEnabled ? "enabled" : "disabled")") } }
    }

    init(title: String) {
        self.title = title
    }

    func addAction(_ action: @escaping @MainActor () -> Void) {
        actions.append(action)
    }

    /// The user taps the button.
    func sendActions() {
        guard isEnabled else {
            Effects.shared.record("tap \(title) ignored (disabled)")
            return
        }
        for action in actions { action() }
    }
}

/// A label whose every change of text is an effect, wherever it happens (a real label set
/// from a background queue is a bug the trace shows).
final class Label: @unchecked Sendable {
    let name: String
    var text: String? {
        didSet { Effects.shared.record("\(name): \(text ?? "")") }
    }

    init(name: String) {
        self.name = name
    }
}

@MainActor
final class ActivityIndicator {
    let name: String
    private(set) var isAnimating = false

    init(name: String) {
        self.name = name
    }

    func startAnimating() {
        guard !isAnimating else { return }
        isAnimating = true
        Effects.shared.record("\(name) spinning")
    }

    func stopAnimating() {
        guard isAnimating else { return }
        isAnimating = false
        Effects.shared.record("\(name) stopped")
    }
}

@MainActor
final class TableView {
    let name: String
    private(set) var rows: [String] = []

    init(name: String) {
        self.name = name
    }

    func reload(_ rows: [String]) {
        self.rows = rows
        Effects.shared.record("\(name) shows \(rows.count) rows" + (rows.isEmpty ? "" : ": " + rows.joined(separator: ", ")))
    }
}
