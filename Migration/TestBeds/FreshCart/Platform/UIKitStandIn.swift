import Dispatch

// A Linux-buildable stand-in for the few UIKit types FreshCart builds on. PromiseKit apps touch
// their views from handlers that PromiseKit runs on the main queue, without `@MainActor`
// annotations, so these types are plain classes: every change is recorded as an effect with the
// queue it happened on, and a change off the main queue is a bug the trace shows.

class ViewController: @unchecked Sendable {
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

    func loadViewIfNeeded() {
        guard !isLoaded else { return }
        isLoaded = true
        viewDidLoad()
    }

    func present(_ viewController: ViewController, animated: Bool, completion: (() -> Void)? = nil) {
        viewController.presentingViewController = self
        presentedViewController = viewController
        Effects.shared.record("present \(viewController.describedForTrace)")
        ViewController.topmost.set(viewController)
        viewController.loadViewIfNeeded()
        if let completion { DispatchQueue.main.async(execute: UnsafeBox(completion).run) }
    }

    func dismiss(animated: Bool) {
        let dismissed = presentedViewController ?? self
        Effects.shared.record("dismiss \(dismissed.title)")
        dismissed.presentingViewController?.presentedViewController = nil
        ViewController.topmost.set(dismissed.presentingViewController)
    }

    var describedForTrace: String { title }

    /// What the user sees on top: where the scenarios tap.
    static let topmost = Topmost()

    final class Topmost: @unchecked Sendable {
        private(set) var current: ViewController?
        func set(_ viewController: ViewController?) { current = viewController }
    }
}

/// Carries a main-queue closure to a later turn of the main queue.
struct UnsafeBox: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
    func run() { body() }
}

final class NavigationController: ViewController, @unchecked Sendable {
    private(set) var viewControllers: [ViewController] = []

    init(root: ViewController) {
        super.init(title: "navigation")
        push(root, animated: false)
    }

    func push(_ viewController: ViewController, animated: Bool) {
        viewControllers.append(viewController)
        viewController.navigationController = self
        Effects.shared.record("push \(viewController.title)")
        viewController.loadViewIfNeeded()
    }

    func popViewController(animated: Bool) {
        guard viewControllers.count > 1 else { return }
        let popped = viewControllers.removeLast()
        Effects.shared.record("pop \(popped.title)")
    }

    var topViewController: ViewController? { viewControllers.last }
}

final class UIAlertAction: @unchecked Sendable {
    enum Style { case `default`, cancel, destructive }
    let title: String
    let style: Style
    let handler: ((UIAlertAction) -> Void)?

    init(title: String, style: Style, handler: ((UIAlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
    }
}

final class UIAlertController: ViewController, @unchecked Sendable {
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

final class Button: @unchecked Sendable {
    let title: String
    private var actions: [() -> Void] = []
    var isEnabled = true {
        didSet { if oldValue != isEnabled { Effects.shared.record("button \(title) \(isEnabled ? "enabled" : "disabled")") } }
    }

    init(title: String) {
        self.title = title
    }

    func addAction(_ action: @escaping () -> Void) {
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

/// A label whose every change of text is an effect, wherever it happens.
final class Label: @unchecked Sendable {
    let name: String
    var text: String? {
        didSet { Effects.shared.record("\(name): \(text ?? "")") }
    }

    init(name: String) {
        self.name = name
    }
}

final class TextField: @unchecked Sendable {
    var text: String = ""
}

final class ActivityIndicator: @unchecked Sendable {
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

final class TableView: @unchecked Sendable {
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
