import Foundation

struct Settings: Sendable {
    var darkMode: Bool
}

final class SettingsStore: Sendable {
    /// Never fails: falls back to defaults.
    @available(*, renamed: "loadSettings()")
    func loadSettings(completion: @escaping @Sendable (Settings) -> Void) {
        DispatchQueue.global().async {
            completion(Settings(darkMode: false))
        }
    }

    /// Async alternative to `loadSettings(completion:)`, added by vow-migrate.
    nonisolated(nonsending) func loadSettings() async -> Settings {
        await withCheckedContinuation { continuation in
            loadSettings { value in
                continuation.resume(returning: value)
            }
        }
    }

    // Called many times: an observer, not a completion handler, so it is left alone.
    func observeChanges(_ onChange: @escaping @Sendable (Settings) -> Void) {
        onChange(Settings(darkMode: true))
    }
}
