import Foundation
import Vow

struct Settings: Sendable {
    var darkMode: Bool
}

final class SettingsStore: Sendable {
    /// Never fails: falls back to defaults.
    func loadSettings(completion: @escaping @Sendable (Settings) -> Void) {
        DispatchQueue.global().async {
            completion(Settings(darkMode: false))
        }
    }

    /// Promise-based alternative to `loadSettings(completion:)`, added by vow-migrate.
    func loadSettings() -> Guarantee<Settings> {
        Guarantee { resolve in
            loadSettings { value in
                resolve(value)
            }
        }
    }

    // Called many times: an observer, not a completion handler, so it is left alone.
    func observeChanges(_ onChange: @escaping @Sendable (Settings) -> Void) {
        onChange(Settings(darkMode: true))
    }
}
