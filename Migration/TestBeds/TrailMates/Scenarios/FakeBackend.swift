import Foundation

/// The TrailMates server as the scenarios want it: every endpoint answers something sensible by
/// default; a scenario overrides single paths (a failure, a 404 meaning "not found", a 409
/// meaning "declined") and may run a hook just before a path is answered (the user taps Cancel
/// while that request is in flight).
final class FakeBackend: @unchecked Sendable {
    static let shared = FakeBackend()
    private let lock = NSLock()
    private var overrides: [String: [ServerAnswer]] = [:]
    private var hooks: [String: @Sendable () -> Void] = [:]

    /// `answers[path]` are used one per request, the last one for every later request.
    func configure(_ answers: [String: [ServerAnswer]], hooks: [String: @Sendable () -> Void]) {
        lock.lock(); overrides = answers; self.hooks = hooks; lock.unlock()
    }

    func answer(_ request: HTTPRequest) -> ServerAnswer {
        let key = "\(request.method) \(request.path)"
        Effects.shared.record("server: \(key)" + (request.body.map { " \($0)" } ?? ""))
        lock.lock()
        let hook = hooks.removeValue(forKey: key)
        var answer: ServerAnswer?
        if var queued = overrides[key], !queued.isEmpty {
            answer = queued.count > 1 ? queued.removeFirst() : queued[0]
            overrides[key] = queued
        }
        lock.unlock()
        hook?()
        return answer ?? defaultAnswer(request)
    }

    // MARK: - Defaults

    private func user(_ id: Int, _ handle: String, hikes: Int = 12) -> String {
        "{\"id\":\(id),\"handle\":\"\(handle)\",\"displayName\":\"\(handle.capitalized)\",\"hikesCompleted\":\(hikes),\"avatarURL\":\"avatar-\(id)\"}"
    }

    private func trail(_ id: Int) -> String {
        let names = [1: "Eagle Ridge", 2: "Lake Loop", 3: "Eastern Col", 4: "Pine Walk"]
        let difficulty = ["easy", "moderate", "hard"][id % 3]
        return "{\"id\":\(id),\"name\":\"\(names[id] ?? "Trail \(id)")\",\"lengthKm\":\(Double(id) * 4.5),\"difficulty\":\"\(difficulty)\"}"
    }

    private func ok(_ body: String) -> ServerAnswer { .status(200, body: body) }

    private func defaultAnswer(_ request: HTTPRequest) -> ServerAnswer {
        let parts = request.path.split(separator: "/").map(String.init)
        let number = { (index: Int) -> Int in index < parts.count ? Int(parts[index]) ?? 0 : 0 }
        switch (request.method, parts.first ?? "") {
        case ("POST", let first) where first.hasPrefix("login"):
            let email = request.path.components(separatedBy: "email=").last ?? ""
            return ok("{\"token\":\"tok-\(email)\",\"userID\":1,\"expiresIn\":3600}")
        case ("POST", "session") where request.path.hasSuffix("refresh"):
            return ok("{\"token\":\"tok-refreshed\",\"userID\":1,\"expiresIn\":3600}")
        case ("POST", "me") where parts.count > 2 && parts[1] == "invites":
            return ok("{\"id\":\(80 + number(2)),\"trailID\":2,\"distanceKm\":0,\"isFinished\":false}")
        case (_, "session"), ("PUT", "me"), ("POST", "me"):
            return ok("{}")
        case ("GET", "me") where parts.count == 1:
            return ok(user(1, "ada"))
        case ("GET", "me") where parts[1] == "invites":
            return ok("[{\"id\":1,\"fromHandle\":\"bo\",\"hikeID\":81},{\"id\":2,\"fromHandle\":\"cy\",\"hikeID\":82},{\"id\":3,\"fromHandle\":\"dee\",\"hikeID\":83}]")
        case ("GET", "leaderboard"):
            return ok(parts[1] == "week" ? "[{\"handle\":\"bo\",\"kilometres\":41.5},{\"handle\":\"ada\",\"kilometres\":30}]"
                      : "[{\"handle\":\"cy\",\"kilometres\":160},{\"handle\":\"bo\",\"kilometres\":120}]")
        case ("GET", "hikes") where parts.count > 2 && parts[2] == "thumbnails":
            return ok("\"thumb-\(number(3))\"")
        case ("GET", "trails") where parts.count > 2 && parts[2] == "forecast":
            let id = number(1)
            return ok("{\"trailID\":\(id),\"temperature\":\(10 + id),\"warning\":" + (id == 3 ? "\"storm\"" : "null") + "}")
        case ("GET", "me") where parts[1] == "friends":
            return ok("[\(user(2, "bo")),\(user(3, "cy"))]")
        case ("GET", "me"):
            return .status(200, body: "{}")
        case ("GET", "users") where parts.count > 2 && parts[1] == "by-handle":
            return ok(user(parts[2].count, parts[2]))
        case ("GET", "users") where parts.count > 2 && parts[2] == "followers":
            return ok("[\(user(5, "dee")),\(user(6, "eli")),\(user(7, "fay"))]")
        case ("GET", "users") where parts.count > 2 && parts[2] == "avatar":
            return ok("\"image-\(number(1))\"")
        case ("GET", "users"):
            return ok(user(number(1), number(1) == 1 ? "ada" : "hiker\(number(1))"))
        case ("GET", let first) where first.hasPrefix("trails?page="):
            let page = Int(first.dropFirst("trails?page=".count)) ?? 1
            return page == 1 ? ok("{\"trails\":[\(trail(1)),\(trail(2))],\"hasMore\":true}")
                : ok("{\"trails\":[\(trail(3))],\"hasMore\":false}")
        case ("GET", "trails") where parts.count > 1 && parts[1].hasPrefix("search"):
            let query = request.path.components(separatedBy: "q=").last ?? ""
            let found = (1...4).filter { trail($0).contains(query) }.map(trail)
            return ok("[\(found.joined(separator: ","))]")
        case ("GET", "trails") where parts.count == 2:
            return ok(trail(number(1)))
        case ("GET", "trails") where parts[2] == "conditions":
            let id = number(1)
            return ok("{\"trailID\":\(id),\"summary\":\"\(id == 3 ? "snow" : "dry")\",\"isOpen\":\(id != 3)}")
        case ("GET", "trails") where parts[2] == "elevation":
            return ok("[\(number(1) * 320),\(number(1) * 300)]")
        case ("GET", "trails") where parts[2] == "comments":
            return ok("[{\"id\":1,\"author\":\"bo\",\"text\":\"muddy\"},{\"id\":2,\"author\":\"cy\",\"text\":\"great views\"}]")
        case ("POST", "trails") where parts[2] == "hikes":
            return ok("{\"id\":\(70 + number(1)),\"trailID\":\(number(1)),\"distanceKm\":0,\"isFinished\":false}")
        case ("POST", "trails"):
            return ok("{}")
        case ("GET", let first) where first.hasPrefix("hikes?page="):
            let page = Int(first.dropFirst("hikes?page=".count)) ?? 1
            let hikes = [1: [71, 72], 2: [73]][page] ?? []
            return ok("[" + hikes.map { "{\"id\":\($0),\"trailID\":1,\"distanceKm\":9.5,\"isFinished\":\($0 != 73)}" }.joined(separator: ",") + "]")
        case ("POST", "hikes") where parts.count > 2 && parts[2] == "photos":
            return ok("{\"id\":\(number(3)),\"hikeID\":\(number(1)),\"caption\":\"\(request.body ?? "")\"}")
        case (_, "hikes"):
            return ok("{}")
        default:
            return .status(400, body: "")
        }
    }
}
