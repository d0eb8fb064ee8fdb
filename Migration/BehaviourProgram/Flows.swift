import Dispatch

/// A view model full of callback pyramids; vow-migrate flattens them.
final class Flows: @unchecked Sendable {
    func show(_ text: String) { Trace.shared.record("show: \(text)", final: true) }
    func present(_ error: Error) { Trace.shared.record("present: \(error)", final: true) }
    func render(_ profile: Profile) { Trace.shared.record("render: \(profile.name)", final: true) }
    func log(_ text: String) { Trace.shared.record("log: \(text)", final: false) }

    // Bool-flag callbacks, an if/else at each level
    func reload() {
        fetchNetworkData { ok in
            if ok {
                self.log("network ok")
                fetchSystemData { ok in
                    if ok { self.show("all loaded") } else { self.show("system failed") }
                }
            } else {
                self.show("network failed")
            }
        }
    }

    // optional error, Result, and a hop to the main queue
    func load(_ user: String) {
        api.login(user) { [weak self] token, error in
            if let error = error { self?.present(error); return }
            api.profile(token!) { [weak self] result in
                switch result {
                case .failure(let error): self?.present(error)
                case .success(let profile):
                    DispatchQueue.main.async { [weak self] in self?.render(profile) }
                }
            }
        }
    }

    // Three levels, statements between them, one way of failing
    func sync(_ user: String) {
        log("sync started")
        api.login(user) { token, error in
            if let error { self.show("sync failed: \(error)"); return }
            self.log("logged in")
            api.profile(token!) { result in
                switch result {
                case .success(let profile):
                    self.log("profile \(profile.name)")
                    store.save(profile) { error in
                        if let error { self.show("sync failed: \(error)") } else { self.show("synced") }
                    }
                case .failure(let error):
                    self.show("sync failed: \(error)")
                }
            }
        }
    }

    // Each level fails in its own way (tagged errors in promise form; async keeps each branch)
    func refresh() {
        store.count { count in
            self.log("count \(count)")
            api.login("user\(count)") { token, error in
                if let error { self.show("login failed: \(error)"); return }
                api.profile(token!) { result in
                    switch result {
                    case .success(let profile): self.show("hello \(profile.name)")
                    case .failure(let error): self.show("profile failed: \(error)")
                    }
                }
            }
        }
    }

    // Code after the pyramid runs before its callback (async refuses it; the chain keeps the order)
    func kick() {
        log("before")
        fetchNetworkData { ok in
            self.show(ok ? "up" : "down")
        }
        log("after")
    }

    // Two Bool flags, each with its own message
    func check() {
        fetchNetworkData { network in
            guard network else {
                self.show("no network")
                return
            }
            fetchSystemData { system in
                if !system {
                    self.show("no system")
                    return
                }
                store.count { count in
                    self.show("checked \(count)")
                }
            }
        }
    }
}
